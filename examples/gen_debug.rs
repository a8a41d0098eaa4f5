use encodings::tatamibari::generate::{Generated, Rng};
use encodings::tatamibari::{self as tb};
use puzzle_sat::solver::Varisat;
fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let mut rng = Rng::new(args[1] as u64);
    let mut g = Generated::new(args[0], args[0], &mut rng);
    for round in 0..300 {
        let board = g.board();
        let mut solver = Varisat::new();
        let enc = tb::encode(&board, &mut solver);
        assert_eq!(tb::check(&board, &{
            let mut l = vec![' '; board.rows*board.cols];
            for (k, r) in g.rects.iter().enumerate() { for (a,b) in r.cells() { l[a*board.cols+b] = char::from_u32(0x4e00+k as u32).unwrap(); } }
            l }), Ok(()), "planted broken at round {round}");
        tb::block(&enc, &mut solver, &g.solution());
        if !solver.solve() { println!("unique after {round}, {} rects", g.rects.len()); return; }
        let other = tb::decode(&enc, &solver.model());
        let odiff: Vec<_> = other.iter().filter(|r| g.rects.binary_search(r).is_err()).cloned().collect();
        if round % 10 == 0 { println!("round {round}: {} rects, {} differ", g.rects.len(), odiff.len()); }
        if false {
            let pdiff: Vec<_> = g.rects.iter().filter(|r| other.binary_search(r).is_err()).cloned().collect();
            let f = |v: &Vec<tb::Rect>| v.iter().map(|r| format!("({},{} {}x{})", r.row, r.col, r.height, r.width)).collect::<Vec<_>>().join(" ");
            println!("round {round}: planted {} | other {}", f(&pdiff), f(&odiff));
            let r0 = pdiff[0].row.saturating_sub(1); let c0 = pdiff[0].col.saturating_sub(1);
            for l in board.to_text().lines().skip(r0).take(6) { println!("    {}", &l[c0..(c0+8).min(l.len())]); }
        }
        g.perturb(&other, &mut rng);
    }
}
