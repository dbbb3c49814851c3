// Case ids written as literals, as a test suite writes them:
// `MeasurementCase(id: "composer", ...)`, `MeasurementCase(id: 7, ...)`.
extension CaseID: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
}
