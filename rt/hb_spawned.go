package rt

// Spawned1 … Spawned4 are Spawned for a function of one to four
// parameters and no result, Spawned0R … Spawned4R for one of none to
// four parameters and one result, which the go statement drops: go
// f(x, y) becomes go _ga_rt.Spawned2(t.GoAt(site), f)(x, y). They are
// typed, so the goroutine starts without reflect.MakeFunc, which Spawned
// needs for any other signature: it allocated at every go statement, and
// its frames showed in reports. A nil f gives a nil function (Spawned0R:
// one that calls f), so the go statement panics as the original does.

// Spawned1 is Spawned for func(A).
func Spawned1[A any](s *Spawn, f func(A)) func(A) {
	if s == nil || f == nil {
		return f
	}
	return func(a A) {
		defer s.Start().Exit()
		f(a)
	}
}

// Spawned2 is Spawned for func(A, B).
func Spawned2[A, B any](s *Spawn, f func(A, B)) func(A, B) {
	if s == nil || f == nil {
		return f
	}
	return func(a A, b B) {
		defer s.Start().Exit()
		f(a, b)
	}
}

// Spawned3 is Spawned for func(A, B, C).
func Spawned3[A, B, C any](s *Spawn, f func(A, B, C)) func(A, B, C) {
	if s == nil || f == nil {
		return f
	}
	return func(a A, b B, c C) {
		defer s.Start().Exit()
		f(a, b, c)
	}
}

// Spawned4 is Spawned for func(A, B, C, D).
func Spawned4[A, B, C, D any](s *Spawn, f func(A, B, C, D)) func(A, B, C, D) {
	if s == nil || f == nil {
		return f
	}
	return func(a A, b B, c C, d D) {
		defer s.Start().Exit()
		f(a, b, c, d)
	}
}

// Spawned0R is Spawned for func() R. For a nil f it gives a function
// that calls f, not nil: go f() of a func() R wraps the call to drop the
// result, so the original panics with a nil dereference in the new
// goroutine, where go of a nil func() is a fatal error in this one.
func Spawned0R[R any](s *Spawn, f func() R) func() {
	if s == nil || f == nil {
		return func() { f() }
	}
	return func() {
		defer s.Start().Exit()
		f()
	}
}

// Spawned1R is Spawned for func(A) R.
func Spawned1R[A, R any](s *Spawn, f func(A) R) func(A) {
	if f == nil {
		return nil
	}
	if s == nil {
		return func(a A) { f(a) }
	}
	return func(a A) {
		defer s.Start().Exit()
		f(a)
	}
}

// Spawned2R is Spawned for func(A, B) R.
func Spawned2R[A, B, R any](s *Spawn, f func(A, B) R) func(A, B) {
	if f == nil {
		return nil
	}
	if s == nil {
		return func(a A, b B) { f(a, b) }
	}
	return func(a A, b B) {
		defer s.Start().Exit()
		f(a, b)
	}
}

// Spawned3R is Spawned for func(A, B, C) R.
func Spawned3R[A, B, C, R any](s *Spawn, f func(A, B, C) R) func(A, B, C) {
	if f == nil {
		return nil
	}
	if s == nil {
		return func(a A, b B, c C) { f(a, b, c) }
	}
	return func(a A, b B, c C) {
		defer s.Start().Exit()
		f(a, b, c)
	}
}

// Spawned4R is Spawned for func(A, B, C, D) R.
func Spawned4R[A, B, C, D, R any](s *Spawn, f func(A, B, C, D) R) func(A, B, C, D) {
	if f == nil {
		return nil
	}
	if s == nil {
		return func(a A, b B, c C, d D) { f(a, b, c, d) }
	}
	return func(a A, b B, c C, d D) {
		defer s.Start().Exit()
		f(a, b, c, d)
	}
}
