//! A small TopoJSON reader: quantised, delta-encoded arcs joined into polygon rings.

use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Transform {
    scale: [f64; 2],
    translate: [f64; 2],
}

#[derive(Deserialize)]
struct Geometry {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    arcs: serde_json::Value,
    #[serde(default)]
    geometries: Vec<Geometry>,
}

#[derive(Deserialize)]
struct Topology {
    #[serde(default)]
    transform: Option<Transform>,
    objects: BTreeMap<String, Geometry>,
    arcs: Vec<Vec<[f64; 2]>>,
}

/// A closed ring of (longitude, latitude) points in degrees.
pub type Ring = Vec<(f64, f64)>;

/// Every ring (outer rings and holes alike) of one object of a TopoJSON topology, in file order.
/// Filled by the even–odd rule, outer rings and holes need no telling apart.
pub fn rings(json: &str, object: &str) -> Result<Vec<Ring>, String> {
    let topo: Topology = serde_json::from_str(json).map_err(|e| format!("not TopoJSON: {e}"))?;
    let arcs: Vec<Vec<(f64, f64)>> = topo
        .arcs
        .iter()
        .map(|arc| match &topo.transform {
            Some(t) => {
                let (mut x, mut y) = (0.0, 0.0);
                arc.iter()
                    .map(|p| {
                        x += p[0];
                        y += p[1];
                        (x * t.scale[0] + t.translate[0], y * t.scale[1] + t.translate[1])
                    })
                    .collect()
            }
            None => arc.iter().map(|p| (p[0], p[1])).collect(),
        })
        .collect();
    let geometry = topo.objects.get(object).ok_or_else(|| format!("the topology has no object `{object}`"))?;
    let mut out = Vec::new();
    collect(geometry, &arcs, &mut out)?;
    Ok(out)
}

fn collect(g: &Geometry, arcs: &[Vec<(f64, f64)>], out: &mut Vec<Ring>) -> Result<(), String> {
    match g.kind.as_str() {
        "GeometryCollection" => {
            for child in &g.geometries {
                collect(child, arcs, out)?;
            }
        }
        "Polygon" => {
            for ring in g.arcs.as_array().into_iter().flatten() {
                out.push(ring_of(ring, arcs)?);
            }
        }
        "MultiPolygon" => {
            for polygon in g.arcs.as_array().into_iter().flatten() {
                for ring in polygon.as_array().into_iter().flatten() {
                    out.push(ring_of(ring, arcs)?);
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Joins a ring's arcs: index `i` is arc i, `!i` (−i−1) the same arc reversed; each arc after the
/// first starts where the previous one ended, so its first point is dropped.
fn ring_of(ring: &serde_json::Value, arcs: &[Vec<(f64, f64)>]) -> Result<Ring, String> {
    let mut points: Ring = Vec::new();
    for index in ring.as_array().into_iter().flatten() {
        let i = index.as_i64().ok_or_else(|| format!("arc index {index} is not a whole number"))?;
        let (k, reversed) = if i < 0 { (-i - 1, true) } else { (i, false) };
        let arc = usize::try_from(k).ok().and_then(|k| arcs.get(k)).ok_or_else(|| format!("no arc {i}"))?;
        let start = usize::from(!points.is_empty());
        if reversed {
            points.extend(arc.iter().rev().skip(start));
        } else {
            points.extend(arc.iter().skip(start));
        }
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arcs_are_decoded_joined_and_reversed() {
        // Two arcs of a unit square, quantised with scale 0.5 and delta-encoded.
        let json = r#"{"type":"Topology","transform":{"scale":[0.5,0.5],"translate":[10,20]},
            "objects":{"land":{"type":"GeometryCollection","geometries":[
              {"type":"Polygon","arcs":[[0,-2]]}]}},
            "arcs":[[[0,0],[2,0],[0,2]],[[0,0],[0,2],[2,0]]]}"#;
        let r = rings(json, "land").unwrap();
        assert_eq!(r, vec![vec![(10.0, 20.0), (11.0, 20.0), (11.0, 21.0), (10.0, 21.0), (10.0, 20.0)]]);
        assert!(rings(json, "sea").is_err());
    }
}
