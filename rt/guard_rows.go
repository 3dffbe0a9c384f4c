package rt

// The static stage proves accesses of a [][]T's rows one coordinate at a
// time (instrument/analysis/rows.go): M[r][c] is the element at row r,
// column c, and two accesses meet only when both coordinates are equal.
// That holds when no two rows share memory, which these guards test with
// each row as a span, as GuardRowsW and GuardRowsR do for a [][]T. The
// ones here take the rows of the rows of a [][][]T (heat-3d's planes of
// rows), and a range of a [][]T's rows (lu's rows below the pivot, which
// must be apart from the pivot row the construct reads).

// GuardPlanesW adds each row m[k][l] of each m[k] as written memory, and
// returns g: every row of every plane must then be apart from every other.
func GuardPlanesW[M ~[]P, P ~[]R, R ~[]T, T any](g *Guard, m M) *Guard {
	for _, plane := range m {
		GuardRowsW(g, plane)
	}
	return g
}

// GuardPlanesR adds each row m[k][l] of each m[k] as read memory, and
// returns g.
func GuardPlanesR[M ~[]P, P ~[]R, R ~[]T, T any](g *Guard, m M) *Guard {
	for _, plane := range m {
		GuardRowsR(g, plane)
	}
	return g
}

// GuardRowsWRange adds the rows m[lo:hi] as written memory, and returns g:
// the construct reaches no other row of m. When 0 ≤ lo ≤ hi ≤ len(m) does
// not hold the bounds cannot be what the analysis computed, and every row
// is added, as GuardRowsW does: the rows added are never fewer than those
// written.
func GuardRowsWRange[M ~[]R, R ~[]T, T any](g *Guard, m M, lo, hi int) *Guard {
	if lo < 0 || lo > hi || hi > len(m) {
		return GuardRowsW(g, m)
	}
	return GuardRowsW(g, m[lo:hi])
}
