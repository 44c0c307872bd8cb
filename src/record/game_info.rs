//! The rules a record was played under: `RU` when it names them, otherwise inferred from the
//! komi, the place and the server; and the fingerprints of the Fox server, whose files need
//! their komi and handicap read differently.
//!
//! `RU` is read in three steps: a preset name or alias ([`crate::rules::preset`]: `Japanese`,
//! `Chinese`, `AGA`, `GOE`, `NZ`, `jp`, `cn`...), a KataGo rules string
//! (`koPOSITIONALscoreAREAtaxALLsui1`), then a ruleset named inside free text (`Tromp/Taylor`,
//! `Chinese rules, komi 7.5`). Values that name a game format rather than rules (GoGoD's
//! `Uchikomi`, `Pair go`, `Relay game`, `Free handicap placement`, `W gives komi`) leave the
//! rules to be inferred, with a `rules-unknown` finding.
//!
//! Inference weighs the evidence in this order (first match wins), and says which it used:
//! 1. a komi written in zi (GoGoD `KM[3.75]`, Fox `KM[375]`): Chinese;
//! 2. an Ing event (`Ing Cup`, `应氏杯`) or the Ing komi 8 (Go4Go's convention): Ing;
//! 3. komi 7.5: Chinese;
//! 4. an event run by one country's association wherever its rounds are played (EV or GN:
//!    the Samsung Cup and the LG Cup, Korean): the Samsung Cup's rounds in Beijing and Shanghai
//!    (aeb-pro, komi 6.5, no RU) give Korean counts (33 of 36 recorded margins), not Chinese
//!    ones (15). Events named after countries (`Japan-China Go Exchange`) are left to the place;
//! 5. the place or server in PC, then EV, then GN, US and SO: Korean (Korea, Seoul, Hanguk
//!    Kiwon, Tygem, Cyberoro, WBaduk...), Chinese (China, Beijing, Zhongguo Qiyuan, Chunlan...),
//!    Japanese (Japan, Nihon Ki-in, Kansai Ki-in, Tokyo, KGS, IGS, and the Japanese titles:
//!    Honinbo, Kisei, Meijin, Judan, Tengen, Oteai...); the keyword met first in a field wins;
//! 6. komi 6.5, 5.5 or 4.5 (territory-era komi): Japanese;
//! 7. nothing at all: Japanese, the rules of the old professional games that make up most
//!    records without RU, komi or place (the finding says it is a default).

use std::sync::LazyLock;

use super::{Properties, PropertyText};
use crate::rules::{self, Preset, Ruleset};

/// Whether a record comes from the Fox server (野狐, foxwq.com), directly or re-saved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FoxEvidence {
    /// The marker found: `AP[foxwq]`, `AP[YuanYu]`, `AP[GNU Go:3.8]`, `AP[SGFC:2.0]` or
    /// Fox's private `TT` time property.
    pub marker: Option<&'static str>,
    /// The marker is Fox's own (`foxwq`, `YuanYu`), or `AP[GNU Go:3.8]` with an empty GN
    /// (KataGo's test) or with Fox's `TT`: strong enough for the `KM[0]` rule (Fox writes
    /// `KM[0]` in even games whose komi it did not record). The shared corpus's fox-pro has 44
    /// even games with `KM[0]`, `AP[GNU Go:3.8]`, `TT` and a counted result: with komi 6.5
    /// (their `RU[Japanese]`'s) kifu's recount is the result in 39, with none in none. No
    /// other record there has `AP[GNU Go:3.8]` and `KM[0]`.
    pub strong: bool,
}

/// Looks for Fox's fingerprints among the root properties.
pub fn fox_evidence(properties: &Properties) -> FoxEvidence {
    let mut evidence = FoxEvidence::default();
    // GNU Go 3.8 itself writes neither an empty GN nor Fox's time property.
    let empty_gn_or_tt =
        properties.iter().any(|(k, v)| (k == "GN" && v.trim().is_empty()) || k == "TT");
    for (key, value) in properties.iter() {
        let (marker, strong) = match key.as_str() {
            "AP" => {
                // Compared ignoring ASCII case rather than lower-cased into a new string: two
                // allocations a Fox game fewer. One search for the `:` (the name is all the
                // value when there is none).
                let (name, version) = match value.split_once(':') {
                    Some((name, version)) => (name.trim(), version.trim()),
                    None => (value.trim(), ""),
                };
                let is = |known: &str| name.eq_ignore_ascii_case(known);
                if is("foxwq") {
                    ("AP[foxwq]", true)
                } else if is("yuanyu") {
                    ("AP[YuanYu]", true)
                } else if is("gnu go") && version == "3.8" {
                    ("AP[GNU Go:3.8]", empty_gn_or_tt)
                } else if is("sgfc") && version == "2.0" {
                    ("AP[SGFC:2.0]", false)
                } else {
                    continue;
                }
            }
            "TT" => ("TT (Fox's time property)", false),
            _ => continue,
        };
        if evidence.marker.is_none() || (strong && !evidence.strong) {
            evidence.marker = Some(marker);
        }
        evidence.strong |= strong;
    }
    evidence
}

/// Rules named by `RU`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NamedRules {
    /// The preset, or `None` for a KataGo rules string.
    pub preset: Option<&'static Preset>,
    /// Its parameters.
    pub ruleset: Ruleset,
}

/// The rules an `RU` value names, if any.
pub fn named_rules(ru: &str) -> Option<NamedRules> {
    let ru = ru.trim();
    if ru.is_empty() {
        return None;
    }
    if let Some(p) = rules::preset(ru) {
        return Some(NamedRules { preset: Some(p), ruleset: p.ruleset });
    }
    if let Some(ruleset) = Ruleset::from_katago_string(ru) {
        return Some(NamedRules { preset: None, ruleset });
    }
    let lower = rules::ruleset::normalize_name(&ru.replace(['/', '.', ','], " "));
    if let Some(p) = rules::preset(&lower) {
        return Some(NamedRules { preset: Some(p), ruleset: p.ruleset });
    }
    // A ruleset named inside free text: "Chinese rules, komi 7.5", "Japanese (1989)".
    const WORDS: &[(&str, &str)] = &[
        ("chinese", "chinese"),
        ("japanese", "japanese"),
        ("korean", "korean"),
        ("tromp", "tromp-taylor"),
        ("new zealand", "nz"),
        ("aga", "aga"),
        ("ing", "ing"),
        ("goe", "ing"),
    ];
    let words: Vec<&str> = lower.split(' ').collect();
    WORDS.iter().find_map(|(word, name)| {
        let hit =
            if word.contains(' ') { lower.contains(word) } else { words.iter().any(|w| w == word) };
        let p = rules::preset(name)?;
        hit.then_some(NamedRules { preset: Some(p), ruleset: p.ruleset })
    })
}

/// What rules inference looks at.
#[derive(Clone, Copy, Debug)]
pub struct Evidence<'a> {
    /// The komi in points, if the record gives one, and whether it was written in zi.
    pub komi: Option<(f64, bool)>,
    /// The root properties, for PC, EV, GN, US and SO.
    pub properties: &'a Properties,
}

/// The inferred rules and what they were inferred from (`None`: nothing, kifu's default).
pub fn infer_rules(evidence: Evidence<'_>) -> (&'static Preset, Option<String>) {
    if let Some((_, true)) = evidence.komi {
        return (*CHINESE, Some("komi written in zi".to_string()));
    }
    // This runs for every game without RU and looks at five properties up to three times each:
    // one pass over the properties picks out their values, in order, each with the place of
    // its identifier in `KEYS`, and the searches below go over those few.
    const KEYS: [&str; 5] = ["PC", "EV", "GN", "US", "SO"];
    const EV: u8 = 1;
    const GN: u8 = 2;
    let mut on_stack = [(0u8, PropertyText::new("")); 16];
    let mut on_heap = Vec::new();
    let mut picked = 0;
    for (k, v) in evidence.properties.iter() {
        // Identifiers compared as the bytes they are (`==` on strings calls memcmp).
        let Some(index) = KEYS.iter().position(|key| k.as_bytes() == key.as_bytes()) else {
            continue;
        };
        let entry = (index as u8, v);
        match on_stack.get_mut(picked) {
            Some(slot) => *slot = entry,
            // More than a root holds in practice: all of them go on the heap.
            None => {
                if on_heap.is_empty() {
                    on_heap.extend_from_slice(&on_stack);
                }
                on_heap.push(entry);
            }
        }
        picked += 1;
    }
    let picked = if on_heap.is_empty() { &on_stack[..picked] } else { &on_heap[..] };
    let field = |key: u8| picked.iter().filter(move |(k, _)| *k == key).map(|&(_, v)| v);
    for event in field(EV).chain(field(GN)) {
        if lowercased(event, |lower| first_keyword(lower.as_bytes(), ING_EVENTS)).is_some() {
            return (*ING, Some(format!("the Ing event {event:?}")));
        }
    }
    match evidence.komi {
        Some((8.0, _)) => return (*ING, Some("komi 8 (Ing)".to_string())),
        Some((7.5, _)) => return (*CHINESE, Some("komi 7.5".to_string())),
        _ => {}
    }
    for (key, event) in field(EV).map(|v| ("EV", v)).chain(field(GN).map(|v| ("GN", v))) {
        let keyword = lowercased(event, |lower| first_keyword(lower.as_bytes(), KOREAN_EVENTS));
        if let Some(keyword) = keyword.map(|i| KOREAN_EVENTS[i]) {
            let reason = [key, "[", event, "] (\"", keyword, "\", a Korean event)"].concat();
            return (named("korean"), Some(reason));
        }
    }
    for (index, key) in (0u8..).zip(KEYS) {
        for value in field(index) {
            if let Some((name, keyword)) = place(value) {
                return (named(name), Some([key, "[", value, "] (\"", keyword, "\")"].concat()));
            }
        }
    }
    match evidence.komi {
        Some((k, _)) if k == 6.5 || k == 5.5 || k == 4.5 => {
            (*JAPANESE, Some(format!("komi {k}, a territory-scoring komi")))
        }
        _ => (*JAPANESE, None),
    }
}

/// A preset of kifu's, by the name the inference gives.
fn named(name: &str) -> &'static Preset {
    rules::preset(name).expect("kifu's presets include this name")
}

// The presets nearly every inference ends in, looked up once rather than by name for every
// game without `RU` (pro: 0.9M instructions of 461M).
static CHINESE: LazyLock<&'static Preset> = LazyLock::new(|| named("chinese"));
static JAPANESE: LazyLock<&'static Preset> = LazyLock::new(|| named("japanese"));
static ING: LazyLock<&'static Preset> = LazyLock::new(|| named("ing"));

/// Events the Korean Baduk Association runs under its rules wherever a round is played.
const KOREAN_EVENTS: &[&str] = &["samsung", "lg cup"];

const ING_EVENTS: &[&str] = &["ing cup", "ing chang-ki", "应氏杯", "應氏杯", "changqi", "ing goe"];

/// Keywords naming a place, server or event tied to one country's rules, by preset.
const PLACES: &[(&str, &[&str])] = &[
    (
        "korean",
        &[
            "korea",
            "seoul",
            "daejeon",
            "busan",
            "yuseong",
            "hanguk kiwon",
            "tygem",
            "cyberoro",
            "wbaduk",
            "baduk",
            "한국",
            "서울",
            "kbs",
            "bc card",
            "kuksu",
            "guksu",
            "myeongin",
            "wangwi",
            "kiwang",
            "paewang",
            "chunwon",
            "kisung",
        ],
    ),
    (
        "chinese",
        &[
            "china",
            "chinese",
            "beijing",
            "shanghai",
            "zhongguo",
            "hangzhou",
            "guangzhou",
            "chengdu",
            "chongqing",
            "tianjin",
            "shenzhen",
            "xiamen",
            "nanjing",
            "wuhan",
            "中国",
            "北京",
            "上海",
            "杭州",
            "弈客",
            "新浪",
            "sina",
            "chunlan",
            "mlily",
            "lanke",
            "bailing",
        ],
    ),
    (
        "japanese",
        &[
            "japan",
            "ki-in",
            "kiin",
            "tokyo",
            "osaka",
            "kyoto",
            "nagoya",
            "hiroshima",
            "kiseido",
            "kgs",
            "igs",
            "pandanet",
            "日本",
            "東京",
            "大阪",
            "honinbo",
            "kisei",
            "meijin",
            "judan",
            "tengen",
            "gosei",
            "oteai",
            "ryusei",
            "agon",
            "nhk",
            "shinjin-o",
            "kakusei",
            "okage",
            "saikyo",
            "shunei",
            "shinei",
            "senko",
            "ricoh",
            "aizu",
            "yugen",
        ],
    ),
];

/// The preset whose keyword appears first in `value`, with the keyword (at the same place,
/// the first keyword of [`PLACES`] in table order).
///
/// This runs on the place and event of every game without RU, so it walks the text once and
/// compares at each position only the keywords starting with that byte ([`PLACE_FIRST_BYTES`]),
/// instead of searching the text for each of the keywords in turn.
fn place(value: &str) -> Option<(&'static str, &'static str)> {
    lowercased(value, |lower| place_in(lower.as_bytes()))
}

/// [`place`] in text already lower-cased.
fn place_in(bytes: &[u8]) -> Option<(&'static str, &'static str)> {
    for at in 0..bytes.len() {
        let mut candidates = PLACE_FIRST_BYTES[usize::from(bytes[at])];
        while candidates != 0 {
            let index = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let (name, key) = PLACE_KEYWORDS[index];
            if bytes[at..].starts_with(key.as_bytes()) {
                return Some((name, key));
            }
        }
    }
    None
}

/// The index (in `keys`) of the keyword that occurs first in `text`; at the same place, the
/// earlier keyword. `None` when none occurs. For short keyword lists; see [`place`].
fn first_keyword(bytes: &[u8], keys: &[&str]) -> Option<usize> {
    // The first byte is compared before the rest: most positions start no keyword.
    (0..bytes.len()).find_map(|at| {
        keys.iter().position(|key| {
            key.as_bytes().first() == Some(&bytes[at]) && bytes[at..].starts_with(key.as_bytes())
        })
    })
}

/// Calls `f` with `value` lower-cased (Unicode's lower case, as `str::to_lowercase`): for a
/// short ASCII value, the usual place, event or result, in a buffer on the stack rather than
/// a new string, since this runs on several properties of every game.
pub(super) fn lowercased<R>(value: &str, f: impl FnOnce(&str) -> R) -> R {
    const SHORT: usize = 128;
    if value.len() <= SHORT && value.is_ascii() {
        let mut buffer = [0u8; SHORT];
        let lower = &mut buffer[..value.len()];
        lower.copy_from_slice(value.as_bytes());
        lower.make_ascii_lowercase();
        // SAFETY: `value` is ASCII (checked above), and so is its copy lower-cased: valid
        // UTF-8, told without checking it again (pro: 0.8M instructions).
        f(unsafe { std::str::from_utf8_unchecked(lower) })
    } else {
        f(&value.to_lowercase())
    }
}

/// Number of keywords in [`PLACES`].
const PLACE_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < PLACES.len() {
        n += PLACES[i].1.len();
        i += 1;
    }
    n
};

/// [`PLACES`] flattened, in table order: (preset, keyword).
static PLACE_KEYWORDS: [(&str, &str); PLACE_COUNT] = {
    let mut out = [("", ""); PLACE_COUNT];
    let (mut i, mut n) = (0, 0);
    while i < PLACES.len() {
        let mut j = 0;
        while j < PLACES[i].1.len() {
            out[n] = (PLACES[i].0, PLACES[i].1[j]);
            n += 1;
            j += 1;
        }
        i += 1;
    }
    out
};

/// For each byte, the keywords of [`PLACE_KEYWORDS`] that start with it, as bits in table order.
static PLACE_FIRST_BYTES: [u128; 256] = {
    assert!(PLACE_COUNT <= 128, "one bit per place keyword");
    let mut masks = [0u128; 256];
    let mut k = 0;
    while k < PLACE_COUNT {
        let key = PLACE_KEYWORDS[k].1.as_bytes();
        assert!(!key.is_empty(), "place keywords are not empty");
        masks[key[0] as usize] |= 1 << k;
        k += 1;
    }
    masks
};

/// Online servers, by a keyword of their name as records write it in PC, AP, SO or GN (matched
/// as a whole word, or as a substring when it holds a space, a dot or a character outside
/// ASCII; in GN, which may name players, only the latter).
const SERVERS: &[(&str, &str)] = &[
    ("tygem", "Tygem"),
    ("tom", "Tom"),
    ("foxwq", "Fox"),
    ("fox go server", "Fox"),
    ("野狐", "Fox"),
    ("kgs", "KGS"),
    ("gokgs.com", "KGS"),
    ("online-go.com", "OGS"),
    ("ogs", "OGS"),
    ("igs", "IGS"),
    ("pandanet", "IGS"),
    ("cyberoro", "Cyberoro"),
    ("wbaduk", "WBaduk"),
    ("dragon go server", "Dragon Go Server"),
    ("dragongoserver.net", "Dragon Go Server"),
    ("弈客", "Yike"),
    ("yike", "Yike"),
    ("新浪", "Sina"),
    ("cgos", "CGOS"),
    ("computer go server", "CGOS"),
    ("nngs", "NNGS"),
    ("cg_nngs", "NNGS"),
    ("no name go server", "NNGS"),
    ("wing", "WING"),
    ("lgs", "LGS"),
    ("internet", "an internet server"),
];

/// The online server a record says the game was played on, from PC, AP, SO or GN.
///
/// It matters for counting: a server counts the final position as the players leave it once
/// both have passed (its own dead-stone agreement, unfilled dame and teire as they are), and
/// records downloaded from it often stop at the last move, without the passes. Records of
/// games counted by the players themselves (professional games) instead stop before the last
/// neutral points and protective moves, which the recorded result counts as played.
pub fn online_server(properties: &Properties) -> Option<&'static str> {
    for key in ["PC", "AP", "SO", "GN"] {
        for (_, value) in properties.iter().filter(|(k, _)| k == key) {
            let lower = value.to_lowercase();
            let words: Vec<&str> =
                lower.split(|c: char| !c.is_alphanumeric() && c != '-').collect();
            let hit = SERVERS.iter().find(|(keyword, _)| {
                if keyword.contains([' ', '.']) || !keyword.is_ascii() {
                    lower.contains(keyword)
                } else {
                    // A game's name may hold a player called Tom: single words count only
                    // where records name places and programs.
                    key != "GN" && words.contains(keyword)
                }
            });
            if let Some((_, name)) = hit {
                return Some(name);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(pairs: &[(&str, &str)]) -> Properties {
        pairs.iter().copied().collect()
    }

    #[test]
    fn ru_values_from_real_files() {
        let name = |ru: &str| named_rules(ru).map(|n| n.preset.map_or("katago", |p| p.name));
        assert_eq!(name("Japanese"), Some("japanese"));
        assert_eq!(name("chinese"), Some("chinese"));
        assert_eq!(name("JPN"), Some("japanese"));
        assert_eq!(name("Tromp/Taylor"), Some("tromp-taylor"));
        assert_eq!(name("New Zealand"), Some("nz"));
        assert_eq!(name("Ing Goe"), Some("ing"));
        assert_eq!(name("Old Chinese"), Some("ancient"));
        assert_eq!(name("Korean"), Some("korean"));
        assert_eq!(name("Chinese rules, komi 7.5"), Some("chinese"));
        assert_eq!(name("koPOSITIONALscoreAREAtaxALLsui1"), Some("katago"));
        assert_eq!(name("Uchikomi"), None);
        assert_eq!(name("Pair go"), None);
        assert_eq!(name("Free handicap placement"), None);
        assert_eq!(name("W gives komi"), None);
        assert_eq!(name(""), None);
    }

    #[test]
    fn servers_are_recognised_where_records_name_them() {
        let server = |pairs: &[(&str, &str)]| {
            let properties: Properties = pairs.iter().copied().collect();
            online_server(&properties)
        };
        assert_eq!(server(&[("PC", "TYGEM")]), Some("Tygem"));
        assert_eq!(server(&[("PC", "Tom")]), Some("Tom"));
        assert_eq!(server(&[("AP", "GNU Go:3.8"), ("AP", "foxwq")]), Some("Fox"));
        assert_eq!(server(&[("PC", "The KGS Go Server at http://www.gokgs.com/")]), Some("KGS"));
        assert_eq!(server(&[("PC", "OGS: https://online-go.com/game/123")]), Some("OGS"));
        assert_eq!(server(&[("PC", "NNGS Worldwide: nngs.cosmic.org 9696")]), Some("NNGS"));
        assert_eq!(server(&[("PC", "(CGOS) 9x9 Computer Go Server")]), Some("CGOS"));
        assert_eq!(server(&[("PC", "Nihon Ki-in, Tokyo")]), None);
        // A game's name may hold a player's name: only whole server names count there.
        assert_eq!(server(&[("GN", "Tom vs Jerry")]), None);
        assert_eq!(server(&[("GN", "Dragon Go Server game 17")]), Some("Dragon Go Server"));
    }

    #[test]
    fn inference_follows_the_documented_order() {
        let infer = |komi: Option<(f64, bool)>, p: &[(&str, &str)]| {
            let p = props(p);
            infer_rules(Evidence { komi, properties: &p }).0.name
        };
        assert_eq!(infer(Some((7.5, true)), &[("PC", "Tokyo")]), "chinese");
        assert_eq!(infer(Some((6.5, false)), &[("EV", "3rd Ing Cup")]), "ing");
        assert_eq!(infer(Some((8.0, false)), &[]), "ing");
        assert_eq!(infer(Some((7.5, false)), &[("PC", "Seoul")]), "chinese");
        assert_eq!(infer(Some((6.5, false)), &[("PC", "Seoul, Korea")]), "korean");
        assert_eq!(infer(Some((5.5, false)), &[("PC", "Beijing")]), "chinese");
        assert_eq!(infer(None, &[("PC", "Nihon Ki-in, Tokyo")]), "japanese");
        assert_eq!(infer(None, &[("EV", "3rd Kisei")]), "japanese");
        assert_eq!(infer(None, &[("PC", "TYGEM Baduk")]), "korean");
        // A Korean event's round played in China keeps the Korean rules.
        let samsung = [("PC", "Kempinski Hotel, Beijing"), ("EV", "11th Samsung Cup")];
        assert_eq!(infer(Some((6.5, false)), &samsung), "korean");
        assert_eq!(infer(Some((6.5, false)), &samsung[..1]), "chinese");
        let exchange = [("PC", "Beijing"), ("EV", "Japan-China Go Exchange")];
        assert_eq!(infer(Some((5.5, false)), &exchange), "chinese");
        assert_eq!(infer(Some((6.5, false)), &[]), "japanese");
        assert_eq!(infer(None, &[]), "japanese");
        // More values looked at than the pass keeps on the stack: the order still holds.
        let mut many = vec![("GN", "a game"); 20];
        many.extend([("SO", "Seoul"), ("PC", "Beijing"), ("GN", "Ing Cup")]);
        assert_eq!(infer(None, &many), "ing");
        many.pop();
        assert_eq!(infer(None, &many), "chinese");
    }

    #[test]
    fn the_keyword_met_first_wins_and_ties_go_to_table_order() {
        assert_eq!(place("Seoul, Korea"), Some(("korean", "seoul")));
        assert_eq!(place("Tokyo, Japan"), Some(("japanese", "tokyo")));
        // "china" and "chinese" both start here: "china" comes first in the table.
        assert_eq!(place("Chinese Weiqi Association"), Some(("chinese", "chinese")));
        assert_eq!(place("China Qiyuan"), Some(("chinese", "china")));
        assert_eq!(place("日本棋院"), Some(("japanese", "日本")));
        assert_eq!(place("nowhere"), None);
        assert_eq!(place(""), None);
        // The same answer as searching for every keyword and keeping the earliest.
        for value in ["Hanguk Kiwon, Seoul", "KGS", "弈客 china", "Kisei, Nihon Ki-in", "x tygem"]
        {
            let lower = value.to_lowercase();
            let naive = PLACES
                .iter()
                .flat_map(|(name, keys)| keys.iter().map(move |k| (*name, *k)))
                .filter_map(|(name, key)| lower.find(key).map(|at| (at, name, key)))
                .min_by_key(|(at, _, _)| *at)
                .map(|(_, name, key)| (name, key));
            assert_eq!(place(value), naive, "{value}");
        }
    }

    #[test]
    fn fox_markers() {
        let fox = |p: &[(&str, &str)]| fox_evidence(&props(p));
        assert!(fox(&[("AP", "GNU Go:3.8"), ("AP", "foxwq")]).strong);
        assert_eq!(fox(&[("AP", "YuanYu")]).marker, Some("AP[YuanYu]"));
        assert!(fox(&[("GN", ""), ("AP", "GNU Go:3.8")]).strong);
        let weak = fox(&[("GN", "a game"), ("AP", "GNU Go:3.8")]);
        assert_eq!((weak.marker.is_some(), weak.strong), (true, false));
        // fox-pro's records: a named game, GNU Go 3.8 and Fox's time property.
        let fox_pro = fox(&[("GN", "a game"), ("AP", "GNU Go:3.8"), ("TT", "30")]);
        assert_eq!((fox_pro.marker, fox_pro.strong), (Some("AP[GNU Go:3.8]"), true));
        assert!(!fox(&[("TT", "30")]).strong, "Fox's time property alone is weak");
        assert_eq!(fox(&[("AP", "SGFC:2.0")]).marker, Some("AP[SGFC:2.0]"));
        assert_eq!(fox(&[("AP", "CGoban:3")]), FoxEvidence::default());
    }
}
