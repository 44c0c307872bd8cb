//! From keys to groups: one sort of all keys, then a walk that sees every game with the same
//! key and every truncated copy next to the games it could be a copy of.
//!
//! 1. The games are sorted by key (then by input order). Equal keys are adjacent: each run of
//!    them is a *class*, records with the same moves. A class of at least
//!    [`DedupeOptions::min_same_moves`] forms a group; a shorter one only groups those of its
//!    members whose metadata is all the same and names a player, a date or an event (two empty
//!    records of the same event, or two games resigned after the same three moves, are not the
//!    same game).
//! 2. In sorted order a key comes right after the keys that are its prefixes, so a stack of
//!    open classes gives each class its longest proper prefix among the classes: its *parent*,
//!    the record it continues. Only parents of at least [`DedupeOptions::min_prefix_moves`]
//!    count, so a short opening never makes two games one.
//! 3. A truncated copy is grouped with the game that continues it only when nothing else
//!    could: its class has that one child, and no branching lies further down (if two games
//!    continue the same 60 moves differently, the 60-move record could be a copy of either, and
//!    stays alone). Below [`DedupeOptions::long_prefix_moves`] the metadata must also be
//!    compatible ([`GameEntry::compatible`]): a game that ended at move 45 is not a copy of a
//!    different game that played the same 45 moves and went on.
//! 4. Connected games form a group; the record kept is chosen and every member described.
//!
//! Time: one sort of the keys (comparisons stop at the first differing move) and linear walks.
//! Memory: the keys themselves, two bytes per move.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::symmetry::Symmetry;
use super::{DedupeOptions, DuplicateGroup, GameEntry, Kind, Kinds, Member, MoveKey, Relation};

/// The groups of duplicate games among `entries` (given in input order), in the input order of
/// their first members. Games without a key (unread) are never grouped.
pub fn find_duplicates(entries: &[GameEntry], options: &DedupeOptions) -> Vec<DuplicateGroup> {
    // A truncated copy is never shorter than a record grouped on its moves alone.
    let min_prefix = options.min_prefix_moves.max(options.min_same_moves);
    let key = |i: usize| entries[i].key.as_ref().map(MoveKey::tokens).unwrap_or(&[]);
    let mut order: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].key.is_some()).collect();
    order.sort_unstable_by(|&a, &b| {
        key(a).cmp(key(b)).then(entries[a].ordinal.cmp(&entries[b].ordinal))
    });
    // Classes: runs of equal keys, as ranges of `order`.
    let mut classes: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, &e) in order.iter().enumerate() {
        match classes.last_mut() {
            Some(last) if key(order[last.start]) == key(e) => last.end = i + 1,
            _ => classes.push(i..i + 1),
        }
    }
    let weight =
        |c: usize| entries[order[classes[c].start]].key.as_ref().map_or(0, MoveKey::weight);
    let members = |c: usize| order[classes[c].clone()].iter().copied();

    let mut sets = DisjointSets::new(entries.len());
    for c in 0..classes.len() {
        let first = order[classes[c].start];
        if weight(c) >= options.min_same_moves {
            for e in members(c) {
                sets.union(first, e);
            }
        } else {
            let mut by_identity: HashMap<u64, usize> = HashMap::new();
            for e in members(c) {
                if let Some(identity) = entries[e].identity() {
                    let other = *by_identity.entry(identity).or_insert(e);
                    sets.union(other, e);
                }
            }
        }
    }

    // The prefix forest over classes.
    let n = classes.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let mut children = vec![0u32; n];
    let mut open: Vec<usize> = Vec::new();
    for c in 0..n {
        let tokens = key(order[classes[c].start]);
        while let Some(&top) = open.last() {
            if tokens.starts_with(key(order[classes[top].start])) {
                break;
            }
            open.pop();
        }
        if let Some(&top) = open.last()
            && weight(top) >= min_prefix
        {
            parent[c] = Some(top);
            children[top] += 1;
        }
        open.push(c);
    }
    // A class is ambiguous when it or a class below it has two or more children. Children sort
    // after their parents, so one backward pass settles it.
    let mut ambiguous = vec![false; n];
    for c in (0..n).rev() {
        ambiguous[c] |= children[c] > 1;
        if let (true, Some(p)) = (ambiguous[c], parent[c]) {
            ambiguous[p] = true;
        }
    }
    for c in 0..n {
        let Some(p) = parent[c] else { continue };
        if children[p] != 1 || ambiguous[c] {
            continue;
        }
        let compatible = weight(p) >= options.long_prefix_moves
            || members(p).any(|a| members(c).any(|b| entries[a].compatible(&entries[b])));
        if compatible {
            sets.union(order[classes[p].start], order[classes[c].start]);
        }
    }

    // Components of two or more games, in input order.
    let mut components: HashMap<usize, Vec<usize>> = HashMap::new();
    for &e in &order {
        components.entry(sets.find(e)).or_default().push(e);
    }
    let mut groups: Vec<Vec<usize>> =
        components.into_values().filter(|members| members.len() > 1).collect();
    for g in &mut groups {
        g.sort_unstable_by_key(|&e| entries[e].ordinal);
    }
    groups.sort_unstable_by_key(|g| entries[g[0]].ordinal);
    groups
        .into_iter()
        .enumerate()
        .map(|(i, members)| describe(i as u32 + 1, members, entries))
        .collect()
}

/// The order of preference for the record kept: not excluded, the longest main line (final
/// passes left out, then with them), the most metadata, a counted result, the first in input
/// order.
fn preference(a: &GameEntry, b: &GameEntry) -> Ordering {
    let length = |e: &GameEntry| e.key.as_ref().map_or(0, |k| k.tokens().len());
    (!a.excluded)
        .cmp(&!b.excluded)
        .then(length(a).cmp(&length(b)))
        .then(a.moves.cmp(&b.moves))
        .then(a.metadata.cmp(&b.metadata))
        .then(a.counted.cmp(&b.counted))
        .then(b.ordinal.cmp(&a.ordinal))
}

/// Why `kept` is preferred to `next`, the runner-up: the first criterion that tells them apart.
fn reason(kept: &GameEntry, next: &GameEntry) -> String {
    let moves = |e: &GameEntry| e.key.as_ref().map_or(0, MoveKey::moves);
    let length = |e: &GameEntry| e.key.as_ref().map_or(0, |k| k.tokens().len());
    if kept.excluded != next.excluded {
        "the only member not dropped for another reason".to_string()
    } else if length(kept) != length(next) {
        format!("longest main line ({} moves; next {})", moves(kept), moves(next))
    } else if kept.moves != next.moves {
        format!(
            "longest main line with its final passes ({} moves; next {})",
            kept.moves, next.moves
        )
    } else if kept.metadata != next.metadata {
        format!("most metadata ({} values; next {})", kept.metadata, next.metadata)
    } else if kept.counted != next.counted {
        format!("counted result ({})", kept.result())
    } else {
        "first in input order".to_string()
    }
}

fn describe(id: u32, members: Vec<usize>, entries: &[GameEntry]) -> DuplicateGroup {
    let kept = members
        .iter()
        .copied()
        .max_by(|&a, &b| preference(&entries[a], &entries[b]))
        .unwrap_or(members[0]);
    let runner_up = members
        .iter()
        .copied()
        .filter(|&e| e != kept)
        .max_by(|&a, &b| preference(&entries[a], &entries[b]))
        .unwrap_or(kept);
    let keeper = &entries[kept];
    let mut kinds = Kinds::default();
    let mut described = vec![Member {
        entry: kept,
        kept: true,
        relation: Relation {
            kinds: Kinds::default(),
            symmetry: Symmetry::Identity,
            differing: Vec::new(),
        },
    }];
    for &e in members.iter().filter(|&&e| e != kept) {
        let relation = relation(&entries[e], keeper);
        kinds = kinds.union(relation.kinds);
        described.push(Member { entry: e, kept: false, relation });
    }
    DuplicateGroup { id, kinds, members: described, reason: reason(keeper, &entries[runner_up]) }
}

/// How `member` relates to `kept`.
fn relation(member: &GameEntry, kept: &GameEntry) -> Relation {
    let mut kinds = Kinds::default();
    let (Some(mine), Some(theirs)) = (&member.key, &kept.key) else {
        return Relation { kinds, symmetry: Symmetry::Identity, differing: Vec::new() };
    };
    let symmetry = mine.symmetry_onto(theirs);
    if symmetry != Symmetry::Identity {
        kinds.insert(Kind::Symmetry);
    }
    if mine.tokens().len() < theirs.tokens().len() {
        kinds.insert(Kind::Truncated);
    }
    let differing = member.differing_fields(kept);
    if !differing.is_empty() {
        kinds.insert(Kind::Metadata);
    }
    if kinds.is_empty() {
        kinds.insert(Kind::Exact);
    }
    Relation { kinds, symmetry, differing }
}

/// Union-find over game indices, with path halving and union by size.
struct DisjointSets {
    parent: Vec<usize>,
    size: Vec<u32>,
}

impl DisjointSets {
    fn new(n: usize) -> DisjointSets {
        DisjointSets { parent: (0..n).collect(), size: vec![1; n] }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        let (big, small) = if self.size[a] >= self.size[b] { (a, b) } else { (b, a) };
        self.parent[small] = big;
        self.size[big] += self.size[small];
    }
}
