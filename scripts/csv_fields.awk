# The cells of one line of a CSV file, for the benchmark scripts' awk programs (prepended to them): a quoted cell
# may hold commas and doubled quotes.  split_csv(line, f) fills f[1..n] and returns n.
function split_csv(line, f,    n, i, c, q, field) {
    n = 0; field = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) {
            if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { field = field "\""; i++ } else q = 0 }
            else field = field c
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = field; field = "" }
        else field = field c
    }
    f[++n] = field
    return n
}
