//! A game's whole tree, variations included, as sgf-parse builds it, made from kifu's scan of
//! the text: what the SGF writer ([`super::write`]) walks.
//!
//! The reader ([`super::sgf`]) interprets the main line only and lets sgf-parse build the tree,
//! a node per heap allocation, freed recursively. Writing a game back needs every node and
//! every property *as written* (sgf-parse keeps typed values only, and its point sets are
//! `HashSet`s whose order changes from run to run), so this module builds its own tree from the
//! scan's tokens ([`super::scan`]): one flat arena of nodes linked by index, built and walked
//! with loops, never recursion, so a 50,000-node-deep OGS game costs nothing special.
//!
//! The tree is the one sgf-parse 4.2.8 builds (`parser.rs`, `parse_gametree`), step for step, in
//! its lenient mode: nodes are created in text order; `(` saves the current list of children,
//! `)` restores it; a `(` whose enclosing list is still empty, a `)` that closes nothing, and a
//! property outside a node end the tree there; so does a lexer error. When the strict parser
//! accepts a text, the lenient one builds the same tree, so this is the tree the reader read
//! whichever way it parsed. Only the first game tree of the text is built, as the reader reads
//! only that one.

use super::scan::{self, RawProperty, Token};

/// No node: the end of a list of children.
const NONE: u32 = u32::MAX;

/// One node: its properties (a range of [`GameTree::properties`]) and its children.
#[derive(Clone, Copy, Debug)]
struct Node {
    first_property: u32,
    properties: u32,
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
}

/// A game tree: nodes in text order, the root first.
#[derive(Debug)]
pub struct GameTree<'t> {
    nodes: Vec<Node>,
    properties: Vec<RawProperty<'t>>,
}

/// Where the next node goes: the top-level list of trees, or a node's children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    Collection,
    Children(u32),
}

/// How many tokens of `text` make its first game tree, as sgf-parse's `split_by_gametree` cuts
/// it in lenient mode: up to the `)` that brings the depth back to zero, or to the end of the
/// tokens when it never does; none when a `)` closes nothing first or no `(` comes at all.
fn first_tree_tokens(text: &str) -> usize {
    let mut depth = 0usize;
    for (i, token) in scan::tokens(text).enumerate() {
        match token {
            Token::Open => depth += 1,
            Token::Close if depth == 0 => return 0,
            Token::Close => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            Token::Error { .. } => return if depth > 0 { i } else { 0 },
            Token::Node | Token::Property(_) => {}
        }
    }
    if depth > 0 { usize::MAX } else { 0 }
}

/// An identifier as sgf-parse reads it (`convert_mixed_case_identifiers`): its uppercase
/// letters only, so `AddBlack` is `AB` and `PL;B` is `PLB`.
pub fn ff4_identifier(raw: &str) -> std::borrow::Cow<'_, str> {
    if raw.bytes().all(|b| b.is_ascii_uppercase()) {
        std::borrow::Cow::Borrowed(raw)
    } else {
        std::borrow::Cow::Owned(raw.chars().filter(char::is_ascii_uppercase).collect())
    }
}

impl<'t> GameTree<'t> {
    /// Builds the first game tree of `text` (one game's text, as the reader is given it). A
    /// text with no node gives a tree whose root is empty, as sgf-parse's lenient parser does.
    pub fn build(text: &'t str) -> GameTree<'t> {
        let mut tree = GameTree { nodes: Vec::new(), properties: Vec::new() };
        let mut collection: Vec<u32> = Vec::new();
        let mut current = List::Collection;
        let mut open: Vec<List> = Vec::new();
        let mut tokens = scan::tokens(text).take(first_tree_tokens(text)).peekable();
        while let Some(token) = tokens.next() {
            match token {
                Token::Open => {
                    if let Some(&enclosing) = open.last()
                        && tree.is_empty(enclosing, &collection)
                    {
                        break;
                    }
                    open.push(current);
                }
                Token::Close => match open.pop() {
                    Some(list) => current = list,
                    None => break,
                },
                Token::Node => {
                    let first_property = tree.properties.len() as u32;
                    while let Some(Token::Property(p)) = tokens.peek() {
                        tree.properties.push(*p);
                        tokens.next();
                    }
                    let id = tree.nodes.len() as u32;
                    tree.nodes.push(Node {
                        first_property,
                        properties: tree.properties.len() as u32 - first_property,
                        first_child: NONE,
                        last_child: NONE,
                        next_sibling: NONE,
                    });
                    match current {
                        List::Collection => collection.push(id),
                        List::Children(parent) => tree.append_child(parent, id),
                    }
                    current = List::Children(id);
                }
                Token::Property(_) | Token::Error { .. } => break,
            }
        }
        // The root is the first node made (the first of the top-level list); with none, an
        // empty root, as sgf-parse's lenient parser makes.
        if tree.nodes.is_empty() {
            tree.nodes.push(Node {
                first_property: 0,
                properties: 0,
                first_child: NONE,
                last_child: NONE,
                next_sibling: NONE,
            });
        }
        tree
    }

    fn is_empty(&self, list: List, collection: &[u32]) -> bool {
        match list {
            List::Collection => collection.is_empty(),
            List::Children(n) => self.nodes[n as usize].first_child == NONE,
        }
    }

    fn append_child(&mut self, parent: u32, child: u32) {
        let last = self.nodes[parent as usize].last_child;
        if last == NONE {
            self.nodes[parent as usize].first_child = child;
        } else {
            self.nodes[last as usize].next_sibling = child;
        }
        self.nodes[parent as usize].last_child = child;
    }

    /// Number of nodes, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree is a lone empty root (the text held no node).
    pub fn is_empty_root(&self) -> bool {
        self.nodes.len() == 1 && self.nodes[0].properties == 0
    }

    /// The root node's id (always 0).
    pub fn root(&self) -> u32 {
        0
    }

    /// The properties of node `id`, in text order.
    pub fn properties(&self, id: u32) -> &[RawProperty<'t>] {
        let n = &self.nodes[id as usize];
        &self.properties[n.first_property as usize..(n.first_property + n.properties) as usize]
    }

    /// The children of node `id`, in text order (the first is the main line).
    pub fn children(&self, id: u32) -> Children<'_, 't> {
        Children { tree: self, next: self.nodes[id as usize].first_child }
    }

    /// The main line: the root, then the first child of each node.
    pub fn main_line(&self) -> impl Iterator<Item = u32> + '_ {
        std::iter::successors(Some(0u32), |&id| {
            let child = self.nodes[id as usize].first_child;
            (child != NONE).then_some(child)
        })
    }
}

/// The children of a node: see [`GameTree::children`].
pub struct Children<'a, 't> {
    tree: &'a GameTree<'t>,
    next: u32,
}

impl Iterator for Children<'_, '_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        self.next = self.tree.nodes[id as usize].next_sibling;
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree as a string: `;ids` per node, variations in parentheses, as SGF nests them.
    fn outline(tree: &GameTree<'_>) -> String {
        enum Step {
            Open,
            Close,
            Sequence(u32),
        }
        let mut out = String::from("(");
        let mut stack = vec![Step::Close, Step::Sequence(tree.root())];
        while let Some(step) = stack.pop() {
            match step {
                Step::Open => out.push('('),
                Step::Close => out.push(')'),
                Step::Sequence(mut id) => loop {
                    out.push(';');
                    for p in tree.properties(id) {
                        out.push_str(&ff4_identifier(p.identifier));
                    }
                    let children: Vec<u32> = tree.children(id).collect();
                    match children.len() {
                        0 => break,
                        1 => id = children[0],
                        _ => {
                            for &c in children.iter().rev() {
                                stack.extend([Step::Close, Step::Sequence(c), Step::Open]);
                            }
                            break;
                        }
                    }
                },
            }
        }
        out
    }

    /// The tree sgf-parse builds, outlined the same way (its identifiers as it reads them).
    fn sgf_parse_outline(text: &str) -> String {
        use sgf_parse::{GameTree as Parsed, ParseOptions, SgfNode, SgfProp};
        fn walk<P: SgfProp>(root: &SgfNode<P>) -> String {
            let mut out = String::from("(");
            let mut stack: Vec<Result<&SgfNode<P>, char>> = vec![Err(')'), Ok(root)];
            while let Some(step) = stack.pop() {
                match step {
                    Err(c) => out.push(c),
                    Ok(mut node) => loop {
                        out.push(';');
                        for p in &node.properties {
                            out.push_str(&p.identifier());
                        }
                        match node.children.len() {
                            0 => break,
                            1 => node = &node.children[0],
                            _ => {
                                for c in node.children.iter().rev() {
                                    stack.extend([Err(')'), Ok(c), Err('(')]);
                                }
                                break;
                            }
                        }
                    },
                }
            }
            out
        }
        let lenient = ParseOptions { lenient: true, ..ParseOptions::default() };
        match sgf_parse::parse_with_options(text, &lenient).unwrap().first() {
            Some(Parsed::GoGame(root)) => walk(root),
            Some(Parsed::Unknown(root)) => walk(root),
            None => "(;)".to_string(),
        }
    }

    #[test]
    fn variations_nest_as_in_the_text() {
        let text = "(;GM[1];B[aa](;W[bb];B[cc])(;W[dd](;B[ee])(;B[ff]));W[zz])";
        let tree = GameTree::build(text);
        assert_eq!(tree.len(), 8);
        // sgf-parse makes `;W[zz]` after the variations a third child of B[aa].
        assert_eq!(outline(&tree), "(;GM;B(;W;B)(;W(;B)(;B))(;W))");
        let main: Vec<String> = tree
            .main_line()
            .map(|id| tree.properties(id).iter().map(|p| p.identifier.to_string()).collect())
            .collect();
        assert_eq!(main, ["GM", "B", "W", "B"]);
    }

    #[test]
    fn the_tree_is_sgf_parses_own_for_well_formed_and_damaged_texts() {
        for text in [
            "(;GM[1]SZ[9];B[aa];W[bb])",
            "(;GM[1];B[aa](;W[bb])(;W[cc];B[dd]))",
            "(;a[](;b[])((;c[])))",
            // Damage: lenient parsing keeps what comes before it.
            "(;B[aa];W[bb]",
            "(;B[aa]((;W[bb])))",
            "(;B[aa];W[bb]))",
            "(;B[aa](W[bb]))",
            "(;B[aa];W[bb",
            "(;B[aa];Wé[bb])",
            "(;B[aa])(;W[bb])",
            "(;AddBlack[aa]PL;B[cc];B [dd])",
            ";B[aa];W[bb])",
            "",
            "()",
        ] {
            assert_eq!(outline(&GameTree::build(text)), sgf_parse_outline(text), "{text:?}");
        }
    }

    #[test]
    fn a_deep_game_is_built_and_walked_without_recursion() {
        let text = format!("(;GM[1]{})", ";B[aa];W[bb]".repeat(50_000));
        let tree = GameTree::build(&text);
        assert_eq!(tree.len(), 100_001);
        assert_eq!(tree.main_line().count(), 100_001);
        let nested = format!("(;GM[1]{}{})", "(;B[aa]".repeat(30_000), ")".repeat(30_000));
        let tree = GameTree::build(&nested);
        assert_eq!(tree.main_line().count(), 30_001);
    }
}
