//! The quiz comments of fumen (`#Q=[H](C)NEXT`): the held piece, the
//! current piece and the pieces to come, advanced page by page as pieces
//! lock, exactly as the fumen editor advances them.

/// A quiz comment, its whitespace removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Quiz {
    text: Vec<char>,
}

/// A quiz that cannot be advanced with the piece played.
#[derive(Debug)]
pub(crate) struct Stuck;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Use {
    Direct,
    Swap,
    Stock,
}

fn letter(c: char) -> bool {
    matches!(
        c.to_ascii_uppercase(),
        'T' | 'I' | 'O' | 'S' | 'Z' | 'J' | 'L'
    )
}

/// `#Q=[X?](X?)X*;?.*` with X a piece letter, any case.
fn well_formed(q: &[char]) -> bool {
    let mut i = 0;
    let eat = |c: char, i: &mut usize| {
        if q.get(*i) == Some(&c) {
            *i += 1;
            true
        } else {
            false
        }
    };
    if !(eat('#', &mut i) && eat('Q', &mut i) && eat('=', &mut i) && eat('[', &mut i)) {
        return false;
    }
    if q.get(i).is_some_and(|&c| letter(c)) {
        i += 1;
    }
    if !(eat(']', &mut i) && eat('(', &mut i)) {
        return false;
    }
    if q.get(i).is_some_and(|&c| letter(c)) {
        i += 1;
    }
    eat(')', &mut i) && q[i..].iter().take_while(|&&c| c != ';').all(|&c| letter(c))
}

impl Quiz {
    /// Whether a comment is a quiz.
    pub(crate) fn is_quiz(comment: &str) -> bool {
        comment.starts_with("#Q=")
    }

    /// A quiz of `comment`; one that is not well formed is refused.
    pub(crate) fn new(comment: &str) -> Result<Quiz, Stuck> {
        let trimmed: Vec<char> = comment
            .trim()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if trimmed.is_empty() || comment == "#Q=[]()" || !comment.starts_with("#Q=") {
            return Ok(Quiz {
                text: comment.chars().collect(),
            });
        }
        if !well_formed(&trimmed) {
            return Err(Stuck);
        }
        Ok(Quiz { text: trimmed })
    }

    fn of(text: String) -> Result<Quiz, Stuck> {
        Quiz::new(&text)
    }

    fn find(&self, c: char) -> Option<usize> {
        self.text.iter().position(|&x| x == c)
    }

    fn at(&self, i: usize) -> Option<char> {
        self.text.get(i).copied()
    }

    fn from(&self, i: usize) -> String {
        self.text
            .get(i..)
            .map(|s| s.iter().collect())
            .unwrap_or_default()
    }

    fn current(&self) -> String {
        let i = self.find('(').map_or(0, |i| i + 1);
        match self.at(i) {
            Some(')') | None => String::new(),
            Some(c) => c.to_string(),
        }
    }

    fn hold(&self) -> String {
        let i = self.find('[').map_or(0, |i| i + 1);
        match self.at(i) {
            Some(']') | None => String::new(),
            Some(c) => c.to_string(),
        }
    }

    fn next(&self) -> String {
        let i = self.find(')').map_or(0, |i| i + 1);
        match self.at(i) {
            Some(';') | None => String::new(),
            Some(c) => c.to_string(),
        }
    }

    fn least(&self) -> String {
        self.from(self.find(')').map_or(0, |i| i + 1))
    }

    fn least_after_next2(&self) -> String {
        let i = self.find(')').unwrap_or(0);
        if self.at(i + 1) == Some(';') {
            self.from(i + 1)
        } else {
            self.from(i + 2)
        }
    }

    fn least_in_active_bag(&self) -> String {
        let end = self.find(';').unwrap_or(self.text.len());
        let head = Quiz {
            text: self.text[..end].to_vec(),
        };
        let i = head.find(')').unwrap_or(0);
        if head.at(i + 1) == Some(';') {
            head.from(i + 1)
        } else {
            head.from(i + 2)
        }
    }

    fn starts(&self, prefix: &str) -> bool {
        let p: Vec<char> = prefix.chars().collect();
        self.text.starts_with(&p)
    }

    /// Whether pieces can still be played from it.
    pub(crate) fn can_operate(&self) -> bool {
        let rest = if self.starts("#Q=[]();") {
            self.from(8)
        } else {
            self.to_string()
        };
        rest.starts_with("#Q=") && rest != "#Q=[]()"
    }

    fn next_if_end(&self) -> Quiz {
        if self.starts("#Q=[]();") {
            Quiz {
                text: self.text[8..].to_vec(),
            }
        } else {
            self.clone()
        }
    }

    fn use_of(&self, used: char) -> Result<Use, Stuck> {
        let used = used.to_string();
        let current = self.current();
        if used == current {
            return Ok(Use::Direct);
        }
        let hold = self.hold();
        if used == hold {
            return Ok(Use::Swap);
        }
        if hold.is_empty() {
            if used == self.next() {
                return Ok(Use::Stock);
            }
        } else if current.is_empty() && used == self.next() {
            return Ok(Use::Direct);
        }
        Err(Stuck)
    }

    fn operate(&self, how: Use) -> Result<Quiz, Stuck> {
        let hold = self.hold();
        match how {
            Use::Direct => {
                if self.current().is_empty() {
                    let least: Vec<char> = self.least_after_next2().chars().collect();
                    let head = least.first().ok_or(Stuck)?;
                    let tail: String = least[1..].iter().collect();
                    Quiz::of(format!("#Q=[{hold}]({head}){tail}"))
                } else {
                    let next = self.next();
                    let rest = self.least_after_next2();
                    Quiz::of(format!("#Q=[{hold}]({next}){rest}"))
                }
            }
            Use::Swap => {
                if hold.is_empty() {
                    return Err(Stuck);
                }
                let (current, next) = (self.current(), self.next());
                Quiz::of(format!(
                    "#Q=[{current}]({next}){}",
                    self.least_after_next2()
                ))
            }
            Use::Stock => {
                if !hold.is_empty() || self.next().is_empty() {
                    return Err(Stuck);
                }
                let least: Vec<char> = self.least_after_next2().chars().collect();
                let head: String = least.first().map(|c| c.to_string()).unwrap_or_default();
                let current = self.current();
                if least.len() > 1 {
                    let tail: String = least[1..].iter().collect();
                    Quiz::of(format!("#Q=[{current}]({head}){tail}"))
                } else {
                    Quiz::of(format!("#Q=[{current}]({head})"))
                }
            }
        }
    }

    /// The quiz after `piece` (a piece letter) locked.
    pub(crate) fn after(&self, piece: char) -> Result<Quiz, Stuck> {
        let next = self.next_if_end();
        let how = next.use_of(piece)?;
        next.operate(how)
    }

    /// The quiz as the editor shows it: the current piece filled from the
    /// hold or the queue when it is empty.
    pub(crate) fn format(&self) -> Quiz {
        let quiz = self.next_if_end();
        let empty = Quiz { text: Vec::new() };
        if quiz.to_string() == "#Q=[]()" {
            return empty;
        }
        let (current, hold) = (quiz.current(), quiz.hold());
        if current.is_empty() && !hold.is_empty() {
            return Quiz::of(format!("#Q=[]({hold}){}", quiz.least())).unwrap_or(empty);
        }
        if current.is_empty() {
            let least: Vec<char> = quiz.least().chars().collect();
            return match least.first() {
                None => empty,
                Some(';') => Quiz::of(least[1..].iter().collect()).unwrap_or(empty),
                Some(head) => {
                    let tail: String = least[1..].iter().collect();
                    Quiz::of(format!("#Q=[]({head}){tail}")).unwrap_or(empty)
                }
            };
        }
        quiz
    }

    /// The held piece's letter.
    pub(crate) fn hold_piece(&self) -> Option<char> {
        if !self.can_operate() {
            return None;
        }
        self.hold().chars().next().filter(|&c| c != ';')
    }

    /// The current piece and the pieces after it, letters (`None` for a
    /// gap).
    pub(crate) fn pieces(&self) -> Vec<Option<char>> {
        if !self.can_operate() {
            return Vec::new();
        }
        let names = format!(
            "{}{}{}",
            self.current(),
            self.next(),
            self.least_in_active_bag()
        );
        names
            .chars()
            .map(|c| (c != ' ' && c != ';').then_some(c))
            .collect()
    }
}

impl std::fmt::Display for Quiz {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for c in &self.text {
            std::fmt::Write::write_char(f, *c)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quizzes_advance_as_the_editor_advances_them() {
        let q = Quiz::new("#Q=[](L)TSJ").unwrap();
        let q = q.after('L').unwrap();
        assert_eq!(q.to_string(), "#Q=[](T)SJ");
        // S comes after T: T goes to hold.
        let q = q.after('S').unwrap();
        assert_eq!(q.to_string(), "#Q=[T](J)");
        assert_eq!(q.hold_piece(), Some('T'));
        assert_eq!(q.pieces(), vec![Some('J')]);
        let q = q.after('T').unwrap();
        assert_eq!(q.to_string(), "#Q=[J]()");
        assert_eq!(q.format().to_string(), "#Q=[](J)");
        assert!(Quiz::new("#Q=[](1)").is_err());
    }
}
