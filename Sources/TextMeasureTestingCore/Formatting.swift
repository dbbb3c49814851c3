/// A number as the reports print it: whole numbers without ".0" (heights and widths
/// are usually whole pixels), others in full.
func formatNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
