//! The opening tree against a corpus counted by hand: six text game records on the 4×4 board
//! in `tests/data/openings/` (results by resignation or agreement, so each game's result and
//! length are whatever the file says):
//!
//! | file | moves | result | turns |
//! | --- | --- | --- | --- |
//! | g1 | 1H 2H 1V | Black | 3 |
//! | g2 | 1H 2H 1V | White | 3 |
//! | g3 | 1H 2V | draw | 2 |
//! | g4 | 1V 2H | Black | 2 |
//! | g5 | 1V | White | 1 |
//! | g6 | 1H 2H 1V 0H | Black | 4 |
//!
//! Two moves deep, by hand:
//!
//! | line | games | Black | White | draws | turns (sum) | mean | Black's score |
//! | --- | --- | --- | --- | --- | --- | --- | --- |
//! | (all) | 6 | 3 (g1 g4 g6) | 2 (g2 g5) | 1 (g3) | 15 | 2.5 | 3.5/6 |
//! | 1H | 4 | 2 (g1 g6) | 1 (g2) | 1 (g3) | 12 | 3.0 | 2.5/4 |
//! | 1H 2H | 3 | 2 | 1 | 0 | 10 | 10/3 | 2/3 |
//! | 1H 2V | 1 | 0 | 0 | 1 | 2 | 2.0 | 1/2 |
//! | 1V | 2 | 1 (g4) | 1 (g5) | 0 | 3 | 1.5 | 1/2 |
//! | 1V 2H | 1 | 1 | 0 | 0 | 2 | 2.0 | 1 |

use crumble_core::Decision;
use crumble_core::GameState as _;
use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::notation::{Frame, parse_move};
use crumble_selfplay::games::crumble::openings::{
    Judge, Line, Node, Tree, line_of_text_record, numbered,
};

fn corpus(depth: usize) -> Vec<Line> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/openings");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 6, "{files:?}");
    files
        .iter()
        .map(|p| {
            let rec = crumble_core::game::record::Record::<Crumble>::parse(
                &std::fs::read_to_string(p).unwrap(),
            )
            .unwrap();
            let (line, size) = line_of_text_record(&rec, depth).unwrap().unwrap();
            assert_eq!(size, (4, 8));
            line
        })
        .collect()
}

fn node<'a>(t: &'a Tree, line: &str) -> &'a Node {
    let want: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    t.nodes()
        .into_iter()
        .find(|n| n.line == want)
        .unwrap_or_else(|| panic!("no node {line:?}"))
}

/// (games, Black wins, White wins, draws, turns summed).
fn counts(n: &Node) -> (u64, u64, u64, u64, u64) {
    (n.games, n.black_wins, n.white_wins, n.draws, n.turns)
}

#[test]
fn the_tree_counts_agree_with_the_hand_count() {
    let t = Tree::build(&corpus(2), 4, 8, 2);
    assert_eq!(counts(&t.root), (6, 3, 2, 1, 15));
    assert_eq!(counts(node(&t, "1H")), (4, 2, 1, 1, 12));
    assert_eq!(counts(node(&t, "1H 2H")), (3, 2, 1, 0, 10));
    assert_eq!(counts(node(&t, "1H 2V")), (1, 0, 0, 1, 2));
    assert_eq!(counts(node(&t, "1V")), (2, 1, 1, 0, 3));
    assert_eq!(counts(node(&t, "1V 2H")), (1, 1, 0, 0, 2));
    // Six nodes in all, depth first, most played first.
    let order: Vec<String> = t.nodes().iter().map(|n| n.line.join(" ")).collect();
    assert_eq!(order, ["", "1H", "1H 2H", "1H 2V", "1V", "1V 2H"]);
    assert!((t.root.mean_turns() - 2.5).abs() < 1e-12);
    assert!((node(&t, "1H 2H").mean_turns() - 10.0 / 3.0).abs() < 1e-12);
    // Black's overall score: (3 + 1/2) / 6.
    let e = t.black_score();
    assert!((e.score - 3.5 / 6.0).abs() < 1e-12, "{e:?}");
    assert!(e.score_low < e.score && e.score < e.score_high, "{e:?}");
    assert!((node(&t, "1H").black_score().score - 0.625).abs() < 1e-12);
    // One move deep: g5 and the rest merge into the first moves only.
    let t1 = Tree::build(&corpus(1), 4, 8, 1);
    assert_eq!(t1.nodes().len(), 3);
    assert_eq!(counts(&t1.root), (6, 3, 2, 1, 15));
}

#[test]
fn pruning_drops_rare_lines_but_keeps_the_root() {
    let mut t = Tree::build(&corpus(2), 4, 8, 2);
    t.prune(2);
    let order: Vec<String> = t.nodes().iter().map(|n| n.line.join(" ")).collect();
    assert_eq!(order, ["", "1H", "1H 2H", "1V"]);
    assert_eq!(
        counts(&t.root),
        (6, 3, 2, 1, 15),
        "the root still counts every game"
    );
    t.prune(7);
    assert_eq!(t.nodes().len(), 1);
}

#[test]
fn markdown_json_and_csv_say_what_the_tree_holds() {
    let t = Tree::build(&corpus(2), 4, 8, 2);
    let md = t.markdown(1);
    assert!(md.contains("6 games from the standard 4×4 start"), "{md}");
    assert!(
        md.contains("Black won 3, White won 2, 1 drawn; mean 2.5 turns"),
        "{md}"
    );
    assert!(md.contains("Black scores 58.3%"), "{md}");
    // 1H: 4 games, 4/6 of all; Black 2/4; White 1/4; draws 1/4; score 62.5%; 3.0 turns.
    let row = md.lines().find(|l| l.contains("1. `1H`")).unwrap();
    for part in ["| 4 |", "66.7%", "50.0% [", "25.0% [", "62.5% [", "| 3.0 |"] {
        assert!(row.contains(part), "{row} lacks {part}");
    }
    let row = md
        .lines()
        .find(|l| l.contains("1... `2H`") && l.contains("| 3 |"))
        .unwrap();
    assert!(row.contains("75.0%") && row.contains("| 3.3 |"), "{row}");
    assert!(!md.contains("prior"), "no judge, no prior column");

    let v = t.json();
    assert_eq!(v["games"], 6);
    assert_eq!(v["board"], 4);
    assert_eq!(v["tree"]["black_wins"]["count"], 3);
    assert_eq!(v["tree"]["draws"]["count"], 1);
    let first = &v["tree"]["children"][0];
    assert_eq!(first["move"], "1H");
    assert_eq!(first["games"], 4);
    assert_eq!(
        first["children"][0]["line"],
        serde_json::json!(["1H", "2H"])
    );
    assert_eq!(first["children"][0]["white_wins"]["count"], 1);
    assert!((v["black_score"]["score"].as_f64().unwrap() - 3.5 / 6.0).abs() < 1e-12);

    let csv = t.csv();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 7, "header and six nodes: {csv}");
    assert!(rows[0].starts_with("depth,line,move,games,black_wins,white_wins,draws"));
    assert!(
        rows[1].starts_with("0,\"\",\"\",6,3,2,1,0.5833,"),
        "{}",
        rows[1]
    );
    assert!(
        rows[3].starts_with("2,\"1H 2H\",\"2H\",3,2,1,0,0.6667,"),
        "{}",
        rows[3]
    );
    assert!(
        rows[6].starts_with("2,\"1V 2H\",\"2H\",1,1,0,0,1.0000,"),
        "{}",
        rows[6]
    );
    assert_eq!(
        numbered(&["1H".into(), "2H".into(), "1V".into()]),
        "1. 1H 2H 2. 1V"
    );
}

/// Checks that every tag opened is closed in order (no XML library in the workspace).
fn assert_well_formed(svg: &str) {
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let j = rest[i..].find('>').expect("every tag ends") + i;
        let tag = &rest[i + 1..j];
        rest = &rest[j + 1..];
        if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        let name = |t: &str| t.split_whitespace().next().unwrap_or("").to_string();
        if let Some(closing) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(closing.trim()), "at <{tag}>");
        } else {
            stack.push(name(tag));
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
}

#[test]
fn the_svg_draws_the_most_played_first_moves() {
    let t = Tree::build(&corpus(2), 4, 8, 2);
    let svg = t.svg(8).unwrap();
    assert_well_formed(&svg);
    assert!(svg.contains("Most played first moves (6 games)"));
    assert!(svg.contains("1. 1H: 66.7% of games (n = 4)"), "{svg}");
    assert!(svg.contains("2. 1V: 33.3% of games (n = 2)"), "{svg}");
    // Two boards nested as sub-pictures, their arrow markers kept apart.
    assert_eq!(svg.matches("<svg ").count(), 3);
    assert!(!svg.contains("id=\"arrow\""));
    let one = t.svg(1).unwrap();
    assert_well_formed(&one);
    assert!(!one.contains("1V:"));
}

/// A judge that knows nothing: value 0.25 everywhere, each decision 1/len of the legal ones.
struct Even;

impl Judge for Even {
    fn value(&mut self, _: &Crumble) -> Result<f32, String> {
        Ok(0.25)
    }
    fn move_prior(&mut self, game: &Crumble, path: &[Decision]) -> Result<f64, String> {
        let mut g = game.clone();
        let mut p = 1.0;
        for &d in path {
            let legal = g.legal_decisions();
            if legal.len() > 1 {
                p /= legal.len() as f64;
            }
            g.apply(d).map_err(|e| e.to_string())?;
        }
        Ok(p)
    }
}

#[test]
fn a_judge_annotates_every_node_and_move() {
    let mut t = Tree::build(&corpus(2), 4, 8, 2);
    t.annotate(&mut Even).unwrap();
    for n in t.nodes() {
        assert_eq!(n.value, Some(0.25), "{:?}", n.line);
        assert_eq!(n.prior.is_some(), !n.line.is_empty(), "{:?}", n.line);
    }
    // 1H from the start: the prior is the product over its decisions, so below 1 and
    // exactly what the decisions of 1H give.
    let start = Crumble::new(4, 8).unwrap();
    let mv = parse_move(&start, "1H", Frame::PerPlayer).unwrap();
    let path = start.move_decisions(&mv).unwrap();
    let want = Even.move_prior(&start, &path).unwrap();
    assert_eq!(node(&t, "1H").prior, Some(want));
    assert!(want > 0.0 && want < 1.0);
    let md = t.markdown(1);
    assert!(md.contains("| prior | value (to move) |"), "{md}");
    assert!(t.csv().lines().nth(2).unwrap().ends_with(",0.2500"));
}
