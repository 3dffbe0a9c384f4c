package rt

// Waited calls wait, the Wait of a pool that, after waiting for every
// task, re-panics a task's panic (conc's pools: conc.WaitGroup.Wait calls
// Repanic after its sync.WaitGroup's Wait), and joins c when wait returns
// or panics. Joined after the call instead, a panic recovered by the
// caller would skip the join, and the parent's code after the recover
// would be reported against tasks that have all returned.
func Waited(c *Construct, wait func()) {
	defer c.Join()
	wait()
}

// Waited1 is Waited for a Wait with one result (ErrorPool, ContextPool,
// ResultPool). c joins before the result reaches the caller.
func Waited1[R any](c *Construct, wait func() R) R {
	defer c.Join()
	return wait()
}

// Waited2 is Waited for a Wait with two results (ResultErrorPool,
// ResultContextPool).
func Waited2[A, B any](c *Construct, wait func() (A, B)) (A, B) {
	defer c.Join()
	return wait()
}
