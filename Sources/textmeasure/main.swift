import TextMeasure
let t = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Hello world, this is a test of wrapping AVATAR office 世界 안녕 مرحبا 👩‍👩‍👧 🇯🇵"
let w = CommandLine.arguments.count > 2 ? Double(CommandLine.arguments[2])! : 120
let p = try PreparedText(t)
let l = try p.layout(width: w)
for line in l.lines { print(line.utf16Range, line.width, line.height, line.lineEnd, "|\(t[line.range])|") }
print(l.height, p.unwrappedWidth)
