package rt

// Spawned1 … Spawned4 are Spawned for a function of one to four
// parameters and no result, Spawned0R … Spawned4R for one of none to
// four parameters and one result, which the go statement drops: go
// f(x, y) becomes go _ga_rt.Spawned2(f)(x, y, t.GoAt(site)). They are
// typed, so the goroutine starts without reflect.MakeFunc, which Spawned
// needs for any other signature: it allocated at every go statement, and
// its frames showed in reports. The spawn is the last argument, so the
// parent's clock is taken after the other arguments are evaluated (go
// use(<-ch) receives first; taken before, the receive's order was lost
// and a read after it was a false race). A nil f gives a nil function:
// the go statement, which has arguments, runs it in a new goroutine that
// panics with a nil dereference, as the original does.

// Spawned0R is Spawned for func() R.
func Spawned0R[R any](f func() R) func(*Spawn) {
	if f == nil {
		return nil
	}
	return func(s *Spawn) {
		defer s.Start().Exit()
		f()
	}
}

// Spawned1 is Spawned for func(A).
func Spawned1[A any](f func(A)) func(A, *Spawn) {
	if f == nil {
		return nil
	}
	return func(a A, s *Spawn) {
		defer s.Start().Exit()
		f(a)
	}
}

// Spawned1R is Spawned for func(A) R.
func Spawned1R[A, R any](f func(A) R) func(A, *Spawn) {
	if f == nil {
		return nil
	}
	return func(a A, s *Spawn) {
		defer s.Start().Exit()
		f(a)
	}
}

// Spawned2 is Spawned for func(A, B).
func Spawned2[A, B any](f func(A, B)) func(A, B, *Spawn) {
	if f == nil {
		return nil
	}
	return func(a A, b B, s *Spawn) {
		defer s.Start().Exit()
		f(a, b)
	}
}

// Spawned2R is Spawned for func(A, B) R.
func Spawned2R[A, B, R any](f func(A, B) R) func(A, B, *Spawn) {
	if f == nil {
		return nil
	}
	return func(a A, b B, s *Spawn) {
		defer s.Start().Exit()
		f(a, b)
	}
}

// Spawned3 is Spawned for func(A, B, C).
func Spawned3[A, B, C any](f func(A, B, C)) func(A, B, C, *Spawn) {
	if f == nil {
		return nil
	}
	return func(a A, b B, c C, s *Spawn) {
		defer s.Start().Exit()
		f(a, b, c)
	}
}

// Spawned3R is Spawned for func(A, B, C) R.
func Spawned3R[A, B, C, R any](f func(A, B, C) R) func(A, B, C, *Spawn) {
	if f == nil {
		return nil
	}
	return func(a A, b B, c C, s *Spawn) {
		defer s.Start().Exit()
		f(a, b, c)
	}
}

// Spawned4 is Spawned for func(A, B, C, D).
func Spawned4[A, B, C, D any](f func(A, B, C, D)) func(A, B, C, D, *Spawn) {
	if f == nil {
		return nil
	}
	return func(a A, b B, c C, d D, s *Spawn) {
		defer s.Start().Exit()
		f(a, b, c, d)
	}
}

// Spawned4R is Spawned for func(A, B, C, D) R.
func Spawned4R[A, B, C, D, R any](f func(A, B, C, D) R) func(A, B, C, D, *Spawn) {
	if f == nil {
		return nil
	}
	return func(a A, b B, c C, d D, s *Spawn) {
		defer s.Start().Exit()
		f(a, b, c, d)
	}
}
