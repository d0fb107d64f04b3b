//! Row bands: the heavy per-span loops of the `compact` stage (the ledge
//! filter, the span neighbours) run over bands of whole rows of a tile in
//! parallel, each band writing its own spans' part of the outputs. A span's result reads the heightfield and the inputs
//! only, never another span's result, so it does not depend on the bands:
//! a one-tile build gets both cores there, as the tiles would give it.

use std::ops::Range;

use rayon::prelude::*;

use crate::heightfield::Heightfield;

/// Spans a band holds at least before the next row starts another: a
/// smaller band costs more to hand out than it saves. Tests cut bands of a
/// few rows, so that their levels run many bands.
const BAND_SPANS: usize = if cfg!(test) { 64 } else { 16_384 };

/// Runs `f(columns, first, parts)` for bands of whole rows of `hf`, in
/// parallel when there are several (one band with one thread): `columns`
/// are the band's column indices, `first` its first span and `parts[k]`
/// its part of `outs[k]` (which hold `stride` entries per span of `hf`),
/// from span `first` on.
pub fn for_row_bands<T: Send, const N: usize>(
    hf: &Heightfield,
    outs: [&mut [T]; N],
    stride: usize,
    f: impl Fn(Range<usize>, usize, [&mut [T]; N]) + Sync,
) {
    let (w, d) = (hf.w as usize, hf.d as usize);
    let span_at = |row: usize| hf.cols[row * w] as usize;
    let mut rest = outs;
    let mut bands = Vec::new();
    let band_spans = if rayon::current_num_threads() > 1 {
        BAND_SPANS
    } else {
        usize::MAX
    };
    let mut start = 0;
    for row in 1..=d {
        if row < d && span_at(row) - span_at(start) < band_spans {
            continue;
        }
        let (first, end) = (span_at(start), span_at(row));
        let part: [&mut [T]; N] = std::array::from_fn(|k| {
            let (part, after) = std::mem::take(&mut rest[k]).split_at_mut((end - first) * stride);
            rest[k] = after;
            part
        });
        bands.push((start * w..row * w, first, part));
        start = row;
    }
    if bands.len() == 1 {
        let (columns, first, part) = bands.pop().expect("one band");
        f(columns, first, part);
    } else {
        bands
            .into_par_iter()
            .for_each(|(columns, first, part)| f(columns, first, part));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples;

    /// Every span of a sample level is handed to exactly one band, with its
    /// own entries, and the bands cover the columns in order.
    #[test]
    fn bands_hand_out_every_span_once_with_its_entries() {
        for b in samples::all().into_iter().map(|x| x.2) {
            let level = b.level();
            let (_, hf, _) = crate::flags::tests::build(&level.mesh, "stand");
            let n = hf.spans.len();
            let mut a = vec![usize::MAX; 3 * n];
            let mut c = vec![usize::MAX; n];
            let seen = std::sync::Mutex::new(Vec::new());
            for_row_bands(&hf, [&mut a[..]], 3, |columns, first, [part]| {
                for (i, e) in part.iter_mut().enumerate() {
                    *e = 3 * first + i;
                }
                seen.lock().unwrap().push((columns, first));
            });
            for_row_bands(&hf, [&mut c[..]], 1, |columns, first, [part]| {
                assert_eq!(first, hf.cols[columns.start] as usize);
                assert_eq!(
                    part.len(),
                    (hf.cols[columns.end] - hf.cols[columns.start]) as usize
                );
                part.fill(first);
            });
            assert_eq!(a, (0..3 * n).collect::<Vec<_>>());
            let mut seen = seen.into_inner().unwrap();
            seen.sort_by_key(|x| x.0.start);
            assert!(seen.len() > 1 || n < BAND_SPANS || rayon::current_num_threads() == 1);
            let mut at = 0;
            for (columns, first) in seen {
                assert_eq!(columns.start, at);
                assert_eq!(columns.start % hf.w as usize, 0);
                assert_eq!(first, hf.cols[at] as usize);
                at = columns.end;
            }
            assert_eq!(at, hf.cols.len() - 1);
            assert!(c.iter().all(|&f| f != usize::MAX));
        }
    }
}
