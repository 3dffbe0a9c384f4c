package rt

// A goroutine that enters a root construct (Enter with a nil task) runs as
// the new root task until the root's outermost Join, which restores what the
// goroutine was attached to before: nothing, the task of an enclosing
// construct it reached this one from through unchecked code, or an outer
// root.
//
// A panic recovered above the root construct, or a Goexit, skips the Join
// and leaves the goroutine attached to a tree nobody joins. If the
// goroutine exits, the id kept with its entry (gls_g.go) hides the entry
// from the next goroutine on the same g. If it goes on, the stale task
// stays its task until its next root Enter. An Enter reached from inside a
// construct runs deeper in the stack than the Enter that opened it: it is
// called from a frame below the one that called that Enter (Enter is never
// inlined, and a function with a construct calls Enter, Fork and Join, too
// much for the inliner). So a root Enter at the same depth as, or above, the
// one that attached the current root task is not inside that construct: it
// was abandoned, and the new root drops it (and any abandoned one it had
// saved) instead of restoring it at its Join. Depth is counted in bytes
// from the top of the goroutine's stack, which a stack that grows and is
// copied keeps.

// enterRoot attaches the calling goroutine to c, a root construct whose
// Enter ran at stack depth d, and records what c's Join restores.
func enterRoot(c *Construct, d uintptr) {
	prev, prevCon := currentRoot()
	for prevCon != nil && d != 0 && d <= prevCon.depth {
		prev, prevCon = prevCon.prevAttached, prevCon.prevRoot // left by a panic: drop it
	}
	c.root, c.depth, c.prevAttached, c.prevRoot = true, d, prev, prevCon
	attach(c.parent, c)
}

// leaveRoot restores, at the root c's outermost Join, the attachment from
// before c's Enter.
func leaveRoot(c *Construct) {
	if c.prevAttached == nil {
		detach()
		return
	}
	attach(c.prevAttached, c.prevRoot)
}
