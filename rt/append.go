package rt

// AppendSlice checks then performs append(s, tail...): the growth of s as
// Grow checks it (writes of the new elements in place, or reads of s's
// elements copied to a new array) at ws, and the reads of tail's elements
// at rs. The rewriter uses it when tail cannot be evaluated a second time
// for its length; s and tail are evaluated once, in order, as append's
// operands are.
func AppendSlice[S ~[]E, T ~[]E, E any](t *Task, s S, tail T, ws, rs Site) S {
	ReadAll(t, tail, rs)
	return append(Grow(t, s, len(tail), ws), tail...)
}

// AppendString checks then performs append(s, tail...) of a string's bytes
// onto a byte slice: the growth of s as Grow checks it. A string's bytes
// are immutable, so reading them is no access.
func AppendString[S ~[]byte, T ~string](t *Task, s S, tail T, ws, _ Site) S {
	return append(Grow(t, s, len(tail), ws), tail...)
}
