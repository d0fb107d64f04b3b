//! What the inspector shows of a walk, step, jump, crouch, ladder or mover
//! link of the link stages: where it leaves and arrives, how wide and how
//! high it is, its kind and the rule that makes a link of that kind (not
//! the link's internal record, with its plane frame and edge references).

use glam::DVec3;
use serde_json::{Value, json};

use crate::links::LinkSeg;

fn mm(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn point(p: DVec3) -> Value {
    json!([mm(p.x), mm(p.y), mm(p.z)])
}

/// A link of the link stages as a designer reads it.
pub fn link_seg(l: &LinkSeg) -> Value {
    let leaves = (l.source[0] + l.source[1]) / 2.0;
    let arrives = (l.dest[0] + l.dest[1]) / 2.0;
    let mut v = json!({
        "kind": l.kind.name(),
        "rule": navscope_core::describe::link_rule(l.kind),
        "leaves_m": point(leaves),
        "arrives_m": point(arrives),
        "width_m": mm(l.source[0].distance(l.source[1])),
        "rise_m": mm(arrives.y - leaves.y),
        "from_polygon": l.from,
        "to_polygon": l.to,
    });
    if l.from_mesh != l.to_mesh {
        v["from_agent_mesh"] = json!(l.from_mesh);
        v["to_agent_mesh"] = json!(l.to_mesh);
    } else {
        v["agent_mesh"] = json!(l.from_mesh);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::LinkKind;

    #[test]
    fn a_step_up_reads_as_where_it_goes_and_why() {
        let l = LinkSeg {
            from_mesh: 0,
            from: 3,
            to_mesh: 0,
            to: 4,
            kind: LinkKind::StepUp,
            source: [DVec3::new(0.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0)],
            dest: [DVec3::new(0.0, 0.25, -0.1), DVec3::new(2.0, 0.25, -0.1)],
            across: DVec3::NEG_Z,
            edge: None,
        };
        let v = link_seg(&l);
        assert_eq!(v["kind"], "step-up");
        assert_eq!(v["width_m"], 2.0);
        assert_eq!(v["rise_m"], 0.25);
        assert_eq!(v["leaves_m"], json!([1.0, 0.0, 0.0]));
        assert_eq!(
            v["rule"],
            navscope_core::describe::link_rule(LinkKind::StepUp)
        );
        assert!(v.get("across").is_none() && v.get("edge").is_none());
    }
}
