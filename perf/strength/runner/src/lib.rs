//! What the match runners share: the score report.

/// Wins, draws and losses of our engine, and what they say in Elo.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    /// Games our engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games our engine lost.
    pub losses: u32,
}

impl Tally {
    /// The score, the Elo difference and its 95% interval (from the
    /// normal approximation of the score; open-ended at 0% and 100%).
    pub fn report(&self) -> String {
        let n = f64::from(self.wins + self.draws + self.losses);
        if n == 0.0 {
            return "no games".to_owned();
        }
        let s = (f64::from(self.wins) + f64::from(self.draws) / 2.0) / n;
        let elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
        let se = (s * (1.0 - s) / n).sqrt().max(0.5 / n);
        let (lo, hi) = ((s - 1.96 * se).max(1e-6), (s + 1.96 * se).min(1.0 - 1e-6));
        let point = if s <= 0.0 {
            "-inf".to_owned()
        } else if s >= 1.0 {
            "+inf".to_owned()
        } else {
            format!("{:+.0}", elo(s))
        };
        format!(
            "+{} ={} -{} of {}: score {:.1}%, Elo {} (95%: {:+.0} to {:+.0})",
            self.wins,
            self.draws,
            self.losses,
            n,
            100.0 * s,
            point,
            elo(lo),
            elo(hi)
        )
    }
}
