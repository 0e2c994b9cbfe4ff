/// The width `migrate` writes its text for: the 80 columns a terminal opens at, and within the 85 the manual's
/// code listings show, so a transcript reads in both without scrolling sideways. Prose, help and the tables whose
/// last column wraps all wrap here.
enum TerminalWidth {
    static let columns = 80
}
