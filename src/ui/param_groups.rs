//! How the parameter panel groups a pipeline's parameters, so a pipeline
//! with dozens of them (`voxel`: five agent tables and the area costs)
//! stays readable: the parameters named `GROUP.NAME` form one collapsible
//! group each, titled by the part of their label before `:` (`stand:
//! radius` → `stand`); the others stand alone. Groups and lone parameters
//! keep the pipeline's order (a group sits where its first parameter is).

use navscope_core::ParamSpec;

/// One row of the panel: a lone parameter, or a titled group.
#[derive(Debug, PartialEq)]
pub(crate) enum ParamRow<'a> {
    /// A parameter shown on its own.
    Lone(&'a ParamSpec),
    /// Parameters sharing the prefix `key`, shown under `title`.
    Group {
        /// The prefix before the dot, e.g. `stand`.
        key: &'a str,
        /// The header, e.g. `stand` or `Area cost`.
        title: &'a str,
        /// The group's parameters, in the pipeline's order.
        params: Vec<&'a ParamSpec>,
    },
}

/// The panel's rows for `params`. A prefix used by a single parameter makes
/// no group (a header over one row only hides it).
pub(crate) fn param_rows(params: &[ParamSpec]) -> Vec<ParamRow<'_>> {
    fn prefix(p: &ParamSpec) -> Option<&str> {
        p.name.split_once('.').map(|(k, _)| k)
    }
    let count = |key: &str| params.iter().filter(|p| prefix(p) == Some(key)).count();
    let mut rows: Vec<ParamRow> = Vec::new();
    for p in params {
        match prefix(p).filter(|k| count(k) > 1) {
            None => rows.push(ParamRow::Lone(p)),
            Some(key) => {
                let existing = rows.iter_mut().find_map(|r| match r {
                    ParamRow::Group { key: k, params, .. } if *k == key => Some(params),
                    _ => None,
                });
                match existing {
                    Some(params) => params.push(p),
                    None => rows.push(ParamRow::Group {
                        key,
                        title: p.label.split_once(':').map_or(key, |(t, _)| t.trim()),
                        params: vec![p],
                    }),
                }
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, label: &str) -> ParamSpec {
        ParamSpec::float(name, label, "m", 1.0, 0.0, 2.0, 0.1, "")
    }

    fn names(rows: &[ParamRow]) -> Vec<String> {
        rows.iter()
            .map(|r| match r {
                ParamRow::Lone(p) => p.name.clone(),
                ParamRow::Group { title, params, .. } => format!(
                    "{title}[{}]",
                    params
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
            })
            .collect()
    }

    #[test]
    fn dotted_names_group_where_their_first_one_stands() {
        let params = [
            spec("cell_size", "Cell size"),
            spec("stand.radius", "stand: radius"),
            spec("crouch.radius", "crouch: radius"),
            spec("stand.height", "stand: height"),
            spec("max_error", "Max error"),
            spec("crouch.height", "crouch: height"),
        ];
        assert_eq!(
            names(&param_rows(&params)),
            [
                "cell_size",
                "stand[stand.radius,stand.height]",
                "crouch[crouch.radius,crouch.height]",
                "max_error"
            ]
        );
    }

    #[test]
    fn a_lone_prefix_a_label_without_colon_and_no_parameters() {
        let params = [
            spec("a.one", "Only one"),
            spec("b.x", "b x"),
            spec("b.y", "b y"),
        ];
        assert_eq!(names(&param_rows(&params)), ["a.one", "b[b.x,b.y]"]);
        assert!(param_rows(&[]).is_empty());
        // Every parameter appears exactly once.
        let n: usize = param_rows(&params)
            .iter()
            .map(|r| match r {
                ParamRow::Lone(_) => 1,
                ParamRow::Group { params, .. } => params.len(),
            })
            .sum();
        assert_eq!(n, params.len());
    }
}
