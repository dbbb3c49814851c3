/// Fits a prepared text's lines: greedy (`GreedyLineFitter`) or chosen again over
/// the greedy ones (`ScoreLineFitter`). Arithmetic over prepared widths only.
protocol LineFitter {
    /// The lines of `prepared`, in order.
    func fit(_ prepared: PreparedText) -> [LineFragment]
}

extension GreedyLineFitter: LineFitter {}
