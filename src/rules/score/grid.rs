//! Flat row-major indexing of a board's points for the counting code: index `y * width + x`,
//! the four orthogonal neighbours, and connected components of point sets.
//!
//! Counting reads a finished position many times over (reachability, regions, chains, eyes); a
//! flat index with a neighbour table keeps those flood fills allocation-free and fast. This is
//! not a board: it knows nothing of stones, moves or captures.

use std::cell::RefCell;
use std::sync::Arc;

use crate::rules::BoardSize;

/// The shape of a board, for walking its points by flat index.
///
/// Cheap to make and to clone: the neighbour table of a size is built once per thread and
/// shared (a game is counted and analysed many times over, always on the same board).
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    width: usize,
    height: usize,
    /// For every point, its on-board neighbours (up to four, in the order up, left, right,
    /// down), padded with [`NO_POINT`].
    neighbours: Arc<[Neighbours]>,
}

/// The on-board neighbours of one point, padded with [`NO_POINT`].
type Neighbours = [u32; 4];

/// Pads [`Neighbours`].
const NO_POINT: u32 = u32::MAX;

/// How many board shapes each thread keeps built; more than one game size in a run is rare.
const CACHED_SHAPES: usize = 4;

/// A neighbour table built for a board's width and height.
type Built = (usize, usize, Arc<[Neighbours]>);

thread_local! {
    /// The neighbour tables built on this thread, in the order built.
    static BUILT: RefCell<Vec<Built>> = const { RefCell::new(Vec::new()) };
}

impl Grid {
    /// The grid of a board of this size.
    pub(crate) fn new(size: BoardSize) -> Grid {
        let width = size.width as usize;
        let height = size.height as usize;
        let neighbours = BUILT.with(|built| {
            let mut built = built.borrow_mut();
            if let Some((_, _, table)) =
                built.iter().rev().find(|(w, h, _)| (*w, *h) == (width, height))
            {
                return Arc::clone(table);
            }
            let table = neighbour_table(width, height);
            if built.len() == CACHED_SHAPES {
                built.remove(0);
            }
            built.push((width, height, Arc::clone(&table)));
            table
        });
        Grid { width, height, neighbours }
    }

    /// Number of columns.
    #[inline]
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    /// Number of points.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.width * self.height
    }

    /// The on-board orthogonal neighbours of point `i`.
    #[inline]
    pub(crate) fn adj(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbours[i].iter().take_while(|&&n| n != NO_POINT).map(|&n| n as usize)
    }

    /// The flat index of `(x, y)` if it lies on the board (signed so callers can step off it).
    #[inline]
    pub(crate) fn at(&self, x: isize, y: isize) -> Option<usize> {
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| y as usize * self.width + x as usize)
    }

    /// Column and row of point `i`.
    #[inline]
    pub(crate) fn xy(&self, i: usize) -> (usize, usize) {
        (i % self.width, i / self.width)
    }

    /// Whether point `i` lies on the first line.
    pub(crate) fn on_edge(&self, i: usize) -> bool {
        let (x, y) = self.xy(i);
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }

    /// Number of connected pieces of `members` (whose membership mask over the whole board is
    /// `is_member`) once the points in `removed` are taken out; `pieces` then holds them
    /// ([`Pieces::iter`]).
    pub(crate) fn count_pieces(
        &self,
        members: &[usize],
        is_member: &[bool],
        removed: &[usize],
        pieces: &mut Pieces,
    ) -> usize {
        let Pieces { seen, stack, visited, ends } = pieces;
        seen.resize(self.len(), false);
        visited.clear();
        ends.clear();
        for &r in removed {
            seen[r] = true;
        }
        for &start in members {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            stack.push(start);
            while let Some(p) = stack.pop() {
                visited.push(p);
                for n in self.adj(p) {
                    if is_member[n] && !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
            ends.push(visited.len());
        }
        for &p in visited.iter() {
            seen[p] = false;
        }
        for &r in removed {
            seen[r] = false;
        }
        ends.len()
    }
}

/// The pieces [`Grid::count_pieces`] found last, and the buffers it reuses from call to call
/// (no allocation once they have grown to the largest shape counted).
#[derive(Debug, Default)]
pub(crate) struct Pieces {
    /// Membership in the walk, over the whole board: all `false` between calls.
    seen: Vec<bool>,
    stack: Vec<usize>,
    /// The points of every piece, piece after piece, each in the order walked.
    visited: Vec<usize>,
    /// Where each piece ends in `visited`.
    ends: Vec<usize>,
}

impl Pieces {
    /// The pieces of the last count, each as its points in the order walked.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[usize]> + '_ {
        self.ends.iter().enumerate().map(|(k, &end)| {
            let start = if k == 0 { 0 } else { self.ends[k - 1] };
            &self.visited[start..end]
        })
    }
}

/// The neighbours of every point of a `width` x `height` board, row by row.
fn neighbour_table(width: usize, height: usize) -> Arc<[Neighbours]> {
    let mut table = Vec::with_capacity(width * height);
    for y in 0..height {
        for x in 0..width {
            let mut n = [NO_POINT; 4];
            let mut count = 0;
            let mut add = |p: usize| {
                n[count] = p as u32;
                count += 1;
            };
            if y > 0 {
                add((y - 1) * width + x);
            }
            if x > 0 {
                add(y * width + x - 1);
            }
            if x + 1 < width {
                add(y * width + x + 1);
            }
            if y + 1 < height {
                add((y + 1) * width + x);
            }
            table.push(n);
        }
    }
    table.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_have_two_neighbours_and_the_centre_four() {
        let g = Grid::new(BoardSize::square(3).unwrap());
        assert_eq!(g.adj(0).count(), 2);
        assert_eq!(g.adj(4).count(), 4);
        assert_eq!(g.adj(5).collect::<Vec<_>>(), vec![2, 4, 8]);
        assert!(g.on_edge(3) && !g.on_edge(4));
        assert_eq!(g.at(-1, 0), None);
        assert_eq!(g.at(2, 2), Some(8));
    }

    #[test]
    fn pieces_split_where_a_bottleneck_is_removed() {
        // A row of five points: removing the middle leaves two pieces.
        let g = Grid::new(BoardSize::new(5, 1).unwrap());
        let members: Vec<usize> = (0..5).collect();
        let mask = vec![true; 5];
        let mut pieces = Pieces::default();
        assert_eq!(g.count_pieces(&members, &mask, &[], &mut pieces), 1);
        assert_eq!(g.count_pieces(&members, &mask, &[2], &mut pieces), 2);
        assert_eq!(pieces.iter().collect::<Vec<_>>(), [&[0, 1][..], &[3, 4][..]]);
        assert!(pieces.seen.iter().all(|&s| !s));
    }
}
