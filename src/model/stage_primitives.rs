//! A published stage's primitives as the app keeps them: voxel columns
//! packed, everything else as the artifact made it.
//!
//! A stage keeps its primitives for as long as it is published or shown
//! (picking, inspection, highlights and preparing the drawing again read
//! them). A [`Primitive`] is about 100 bytes whatever its shape, and a voxel
//! stage is almost all `VoxelColumn`s: `dungeon.obj`'s flag stage at 0.1 m
//! cells is 613,135 of them, 64 MB. A column's own data is its cell's
//! corner and its two heights; its kind, cell size, layer, sub-step range
//! and element (a voxel pipeline's tile) are shared by thousands. So
//! [`StagePrimitives`] keeps each column in 20 bytes ([`Column`]) with an
//! index into a table of what they share ([`ColumnClass`]), and makes the
//! [`Primitive`] again when it is asked for one: exactly the one the
//! artifact made.
//!
//! Columns that carry a value (coloured by quantity) are kept whole, as is
//! every other shape. The columns come after the whole primitives, each
//! part in the artifact's order; primitive `i` means the same thing to the
//! stage's index, picking and highlights, which all go through this store.

use std::borrow::Cow;
use std::collections::HashMap;

use navscope_core::{Primitive, Shape};

/// A voxel column without what it shares with others of its class.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Column {
    /// The cell's minimum corner, x.
    x: f32,
    /// The cell's minimum corner, z.
    z: f32,
    /// Bottom height.
    y0: f32,
    /// Top height.
    y1: f32,
    /// Index of its [`ColumnClass`].
    class: u32,
}

/// What many columns share: all of a primitive but the column's corner
/// and heights.
#[derive(Debug, Clone, PartialEq)]
struct ColumnClass {
    kind: Cow<'static, str>,
    element: u32,
    cell: f32,
    first_step: u32,
    last_step: u32,
    layer: Option<u32>,
}

/// A class's key but its kind: element, cell size as bits, sub-step
/// range and layer.
type ClassKey = (u32, u32, u32, u32, Option<u32>);

/// A stage's primitives: the packed columns and the rest (see the module
/// docs).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StagePrimitives {
    whole: Vec<Primitive>,
    columns: Vec<Column>,
    classes: Vec<ColumnClass>,
}

impl StagePrimitives {
    /// Keeps `primitives`, packing the voxel columns that carry no value.
    pub fn new(primitives: Vec<Primitive>) -> Self {
        let mut whole = Vec::new();
        let mut columns = Vec::new();
        let mut classes = Vec::new();
        // By kind first, looked up by the kind's text: a kind the artifact
        // made at run time is copied once per class, not once per column.
        let mut class_of: HashMap<Cow<'static, str>, HashMap<ClassKey, u32>> = HashMap::new();
        for p in primitives {
            let (Shape::VoxelColumn { x, z, cell, y0, y1 }, None) = (&p.shape, p.value) else {
                whole.push(p);
                continue;
            };
            if !class_of.contains_key(&*p.kind) {
                class_of.insert(p.kind.clone(), HashMap::new());
            }
            let of_kind = class_of.get_mut(&*p.kind).expect("inserted above");
            let key = (
                p.element,
                cell.to_bits(),
                p.first_step,
                p.last_step,
                p.layer,
            );
            let class = *of_kind.entry(key).or_insert_with(|| {
                classes.push(ColumnClass {
                    kind: p.kind.clone(),
                    element: p.element,
                    cell: *cell,
                    first_step: p.first_step,
                    last_step: p.last_step,
                    layer: p.layer,
                });
                (classes.len() - 1) as u32
            });
            columns.push(Column {
                x: *x,
                z: *z,
                y0: *y0,
                y1: *y1,
                class,
            });
        }
        whole.shrink_to_fit();
        columns.shrink_to_fit();
        classes.shrink_to_fit();
        Self {
            whole,
            columns,
            classes,
        }
    }

    /// How many primitives it holds.
    pub fn len(&self) -> usize {
        self.whole.len() + self.columns.len()
    }

    /// True when it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Primitive `i`: borrowed when kept whole, made again when packed.
    ///
    /// # Panics
    /// When `i` is not below [`StagePrimitives::len`].
    pub fn get(&self, i: usize) -> Cow<'_, Primitive> {
        match i.checked_sub(self.whole.len()) {
            None => Cow::Borrowed(&self.whole[i]),
            Some(k) => Cow::Owned(self.unpack(&self.columns[k])),
        }
    }

    /// Primitive `i` when it is kept whole (`None` for a packed column):
    /// for what borrows from its shape (a long outline's edges).
    pub fn whole(&self, i: usize) -> Option<&Primitive> {
        self.whole.get(i)
    }

    /// The kind and element of primitive `i`, without making it.
    pub fn kind_and_element(&self, i: usize) -> (&str, u32) {
        match i.checked_sub(self.whole.len()) {
            None => (&self.whole[i].kind, self.whole[i].element),
            Some(k) => {
                let class = &self.classes[self.columns[k].class as usize];
                (&class.kind, class.element)
            }
        }
    }

    /// Every primitive, in the order of their ids.
    pub fn iter(&self) -> impl Iterator<Item = Cow<'_, Primitive>> + Clone + '_ {
        self.whole
            .iter()
            .map(Cow::Borrowed)
            .chain(self.columns.iter().map(|c| Cow::Owned(self.unpack(c))))
    }

    /// The primitive a packed column stands for.
    fn unpack(&self, c: &Column) -> Primitive {
        let class = &self.classes[c.class as usize];
        Primitive {
            kind: class.kind.clone(),
            element: class.element,
            shape: Shape::VoxelColumn {
                x: c.x,
                z: c.z,
                cell: class.cell,
                y0: c.y0,
                y1: c.y1,
            },
            first_step: class.first_step,
            last_step: class.last_step,
            layer: class.layer,
            value: None,
        }
    }
}

impl From<Vec<Primitive>> for StagePrimitives {
    fn from(primitives: Vec<Primitive>) -> Self {
        Self::new(primitives)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::math::Vec3;
    use proptest::prelude::*;

    fn column(kind: &'static str, element: u32, x: f32, cell: f32) -> Primitive {
        Primitive::new(
            kind,
            element,
            Shape::VoxelColumn {
                x,
                z: -x,
                cell,
                y0: x * 0.5,
                y1: x * 0.5 + 0.2,
            },
        )
    }

    #[test]
    fn a_column_takes_a_fifth_of_a_primitive() {
        assert!(size_of::<Column>() * 5 <= size_of::<Primitive>());
    }

    #[test]
    fn an_empty_stage_holds_nothing() {
        let s = StagePrimitives::new(Vec::new());
        assert!(s.is_empty());
        assert_eq!(s.iter().count(), 0);
        assert!(s.whole(0).is_none());
    }

    #[test]
    fn columns_with_a_value_and_other_shapes_are_kept_whole() {
        let prims = vec![
            column("voxel/walkable", 1, 1.0, 0.1),
            column("voxel/distance", 2, 2.0, 0.1).with_value(3.5),
            Primitive::new("portal", 3, Shape::Segment(Vec3::ZERO, Vec3::X)),
            column("voxel/walkable", 4, 3.0, 0.1),
        ];
        let s = StagePrimitives::new(prims.clone());
        assert_eq!(s.len(), 4);
        // The two kept whole come first, then the packed columns.
        assert_eq!(s.whole(0), Some(&prims[1]));
        assert_eq!(s.whole(1), Some(&prims[2]));
        assert!(s.whole(2).is_none());
        assert_eq!(*s.get(2), prims[0]);
        assert_eq!(*s.get(3), prims[3]);
        assert_eq!(s.kind_and_element(3), ("voxel/walkable", 4));
        assert_eq!(s.classes.len(), 2, "one class per element");
        let shared = StagePrimitives::new(vec![
            column("voxel/walkable", 1, 1.0, 0.1),
            column("voxel/walkable", 1, 2.0, 0.1),
            column("voxel/walkable", 1, 3.0, 0.3),
        ]);
        assert_eq!(shared.classes.len(), 2, "one class per cell size");
    }

    fn any_primitive() -> impl Strategy<Value = Primitive> {
        let kinds = prop::sample::select(vec!["voxel/walkable", "voxel/border", "portal"]);
        (
            kinds,
            0u32..50,
            -1e4f32..1e4,
            prop::sample::select(vec![0.1f32, 0.3]),
            0u32..4,
            prop::option::of(0u32..3),
            prop::option::of(-5f32..5.0),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(
                |(kind, element, x, cell, first, layer, value, segment, owned)| {
                    let mut p = if segment {
                        Primitive::new(kind, element, Shape::Segment(Vec3::splat(x), Vec3::ONE))
                    } else {
                        column(kind, element, x, cell)
                    };
                    if owned {
                        p.kind = Cow::Owned(format!("{kind}/owned"));
                    }
                    p.first_step = first;
                    p.last_step = first + 2;
                    p.layer = layer;
                    p.value = value;
                    p
                },
            )
    }

    proptest! {
        /// Every primitive comes back exactly as the artifact made it, each
        /// once, and its kind and element read without making it agree.
        #[test]
        fn every_primitive_comes_back_as_it_was(
            prims in prop::collection::vec(any_primitive(), 0..80)
        ) {
            let s = StagePrimitives::new(prims.clone());
            prop_assert_eq!(s.len(), prims.len());
            let back: Vec<Primitive> = s.iter().map(Cow::into_owned).collect();
            for (i, p) in back.iter().enumerate() {
                prop_assert_eq!(&*s.get(i), p);
                prop_assert_eq!(s.kind_and_element(i), (&*p.kind, p.element));
            }
            // The same multiset: sort both by their debug text.
            let key = |p: &Primitive| format!("{p:?}");
            let mut a: Vec<String> = prims.iter().map(key).collect();
            let mut b: Vec<String> = back.iter().map(key).collect();
            a.sort();
            b.sort();
            prop_assert_eq!(a, b);
        }
    }
}
