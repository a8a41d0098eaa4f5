//! The genres, one row each: the type and the capabilities ([`crate::capability`]) it has.
//! This is the only list: the command line's registry and the web page read it through
//! [`genres!`](crate::genres!), and [`crate::declare!`] makes each row's [`crate::genre::Genre`].
//! A URL given without a genre's name goes to the first row whose genre reads its kind.

/// `genres!(then)` calls `then! { Type: Capability…; … }` with every row;
/// `genres!(each visit(args…))` calls `visit!(Type, (args…))` for every row, in order.
#[macro_export]
macro_rules! genres {
    ($then:path) => {
        $crate::genres! { @rows [$then] }
    };
    (each $visit:ident $args:tt) => {
        $crate::genres! { @rows (each $visit $args) }
    };
    (@rows $how:tt) => {
        $crate::genres! { @emit $how
            $crate::genres::sudoku::Sudoku: Urls Backbone PbClaims Marks Estimate Generate Explain;
            $crate::genres::target_sudoku::TargetSudoku: Scoring Urls Backbone PbClaims PbOptimum Marks Estimate;
            $crate::genres::tatamibari::Tatamibari: Urls Backbone Searches Prunes Generate Marks Estimate Explain;
            $crate::genres::kakkuro::Kakkuro: Scoring Lemmas Complete PbOwnOptimum Searches Marks Estimate;
            $crate::genres::shikaku::Shikaku: Urls Backbone Marks Estimate Explain;
            $crate::genres::kakuro::Kakuro: Urls Backbone Marks Explain;
            $crate::genres::nurikabe::Nurikabe: Urls Backbone Cuts Marks Estimate Explain;
            $crate::genres::hitori::Hitori: Urls Backbone Cuts Marks Estimate Explain;
            $crate::genres::heyawake::Heyawake: Urls Backbone Cuts Marks Estimate Explain;
            $crate::genres::lits::Lits: Urls Backbone Cuts Marks Estimate Explain;
            $crate::genres::slitherlink::Slitherlink: Urls Backbone Cuts Marks Estimate Explain;
            $crate::genres::masyu::Masyu: Urls Backbone Cuts Marks Estimate Explain;
        }
    };
    (@emit [$then:path] $($rows:tt)*) => {
        $then! { $($rows)* }
    };
    (@emit (each $visit:ident $args:tt) $($genre:ty: $($cap:ident)*;)*) => {
        $( $visit!($genre, $args); )*
    };
}

pub mod digits;
pub mod heyawake;
pub mod hitori;
pub mod kakkuro;
pub mod kakuro;
pub mod lits;
pub mod loops;
pub mod masyu;
pub mod nurikabe;
pub mod rects;
pub mod shade;
pub mod shikaku;
pub mod slitherlink;
pub mod sudoku;
pub mod target_sudoku;
pub mod tatamibari;

genres!(crate::declare);
