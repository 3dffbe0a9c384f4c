package rt

// Code of a package that is not rewritten (a dependency built plain) may
// call back code of the rewritten packages it was given earlier (a hook
// stored in a struct, a registry) while it holds a lock of its own, which
// no check sees. Run checked under the calling block's task, two blocks'
// callbacks would look unordered though the lock orders them: a false data
// race. So a call from checked code into such a package makes the calling
// goroutine's task opaque until it returns: Current returns nil, and what
// the plain code calls back runs as written, unchecked. The rewriter
// writes such a call
//
//	dep.Fire(x)            as  _ga_rt.Plain(func() { dep.Fire(x) })
//	v := h.Get(k)          as  v := _ga_rt.Done1(_ga_rt.Opaque(h).Get(k))
//	a, b := dep.Two(x)     as  a, b := _ga_rt.Done2(dep.Two(_ga_rt.Opaque(x)))
//
// Opaque marks (the receiver, the first argument or the function, whatever
// is evaluated first), the call runs, Done unmarks and passes the results
// on. The mark is a count in the task the goroutine is attached to, so
// calls nest, and a construct entered inside the plain code is a new root
// with a task of its own, checked as usual. A panic that skips Done leaves
// the count raised: if checked code recovers it, the task stays opaque
// (its callbacks through values run unchecked) until the goroutine ends or
// Recovered clears it. A raised count can only make less code checked,
// never more. Outside every construct each of these costs one atomic load.

// Opaque makes the calling goroutine's task opaque (see Done) and returns x.
func Opaque[T any](x T) T {
	if attached.Load() != 0 {
		opaqueBegin()
	}
	return x
}

// Plain calls f, a call into plain code without results, with the calling
// goroutine's task opaque. A panic in f unmarks too.
func Plain(f func()) {
	if attached.Load() == 0 {
		f()
		return
	}
	t := opaqueBegin()
	defer t.opaqueEnd()
	f()
}

// PlainBefore and PlainAfter bracket a deferred call into plain code:
//
//	defer _ga_rt.PlainAfter()
//	defer dep.Catch(&err)
//	defer _ga_rt.PlainBefore()
//
// PlainBefore runs right before the call and makes the task opaque, as
// Plain does; PlainAfter runs right after it, a panic in it too, and ends
// that. The call stays deferred as written, with its operands evaluated at
// its defer statement, and a recover() in it is still called by a deferred
// function: inside Plain's wrapper it returned nil and the panic went on
// (testdata/review18/plainrecover). A PlainAfter whose PlainBefore never
// ran (the call's operands panicked) lowers a count that checked code
// expects at 0 anyway.
func PlainBefore() {
	if attached.Load() != 0 {
		opaqueBegin()
	}
}

// PlainAfter ends what PlainBefore began.
func PlainAfter() {
	if attached.Load() != 0 {
		attachedTask().opaqueEnd()
	}
}

// PlainArgs1 returns f made to run as Plain runs it. A deferred call into
// plain code with arguments is deferred as PlainArgs1(h.FireN)(n), so that
// its function value and arguments are evaluated where the defer statement
// runs, as they were, and each argument is assigned to f's parameter as in
// the call written: with f and a both arguments of one generic call, a
// *os.File given for an io.Writer would not compile.
func PlainArgs1[A any](f func(A)) func(A) { return func(a A) { Plain(func() { f(a) }) } }

// PlainArgs2 is PlainArgs1 for f(a, b).
func PlainArgs2[A, B any](f func(A, B)) func(A, B) {
	return func(a A, b B) { Plain(func() { f(a, b) }) }
}

// PlainArgs3 is PlainArgs1 for f(a, b, c).
func PlainArgs3[A, B, C any](f func(A, B, C)) func(A, B, C) {
	return func(a A, b B, c C) { Plain(func() { f(a, b, c) }) }
}

// Done1 ends what Opaque began and returns the call's result.
func Done1[A any](a A) A {
	if attached.Load() != 0 {
		attachedTask().opaqueEnd()
	}
	return a
}

// Done2 ends what Opaque began and returns the call's results.
func Done2[A, B any](a A, b B) (A, B) {
	if attached.Load() != 0 {
		attachedTask().opaqueEnd()
	}
	return a, b
}

// Done3 ends what Opaque began and returns the call's results.
func Done3[A, B, C any](a A, b B, c C) (A, B, C) {
	if attached.Load() != 0 {
		attachedTask().opaqueEnd()
	}
	return a, b, c
}

// Done4 ends what Opaque began and returns the call's results.
func Done4[A, B, C, D any](a A, b B, c C, d D) (A, B, C, D) {
	if attached.Load() != 0 {
		attachedTask().opaqueEnd()
	}
	return a, b, c, d
}

// Recovered clears the opaque count that a panic through a plain call left
// raised, when checked code recovers it (the rewriter writes recover() in
// checked code as Recovered(recover())), and returns r. Checked code runs
// only while its task is not opaque, so the right count there is 0.
func Recovered(r any) any {
	if r != nil {
		if t := attachedTask(); t != nil {
			t.opaque = 0
		}
	}
	return r
}

// opaqueBegin raises the opaque count of the calling goroutine's task and
// returns the task (nil when the goroutine is attached to none).
func opaqueBegin() *Task {
	t := attachedTask()
	if t != nil {
		t.opaque++
	}
	return t
}

// opaqueEnd lowers t's opaque count. A nil t does nothing.
func (t *Task) opaqueEnd() {
	if t != nil && t.opaque > 0 {
		t.opaque--
	}
}

// attachedTask returns the task the calling goroutine is attached to,
// opaque or not, or nil.
func attachedTask() *Task {
	if attached.Load() == 0 {
		return nil
	}
	if s := glsTab.Load().lookup(self()); s != nil {
		return s.task
	}
	return nil
}
