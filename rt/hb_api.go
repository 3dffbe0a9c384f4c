package rt

// The thread hooks of api_hb.go: HB, HBRoot, EndRoot, Go, Start, Exit.

// hbRoot is HBRoot.
func hbRoot() *Task {
	rep := defaultReporter()
	if rep.cfg.check == 0 {
		return nil
	}
	if t := hbCurrent(); t != nil {
		th := t.hb
		th.mu.Lock()
		th.roots++
		th.mu.Unlock()
		return t
	}
	global.hb.dropOld()
	th := global.hb.root()
	th.roots, th.byRoot = 1, true
	global.hb.register(th, false)
	hbSetCurrent(&th.task)
	return &th.task
}

// hbEndRoot is EndRoot.
func (t *Task) hbEndRoot() {
	if t == nil || t.hb == nil {
		return
	}
	th := t.hbOf()
	th.releaseG()
	th.roots--
	end := th.roots <= 0 && th.byRoot
	if end {
		th.ended()
		th.end()
	}
	th.mu.Unlock()
	if end {
		hbClearCurrent()
	}
}

// hbGo is Go: the clock the started goroutine begins with. A task of a
// construct tree that a thread entered forks from that thread's clock.
func (t *Task) hbGo() *Spawn { return t.hbGoAt(0) }

// hbGoAt is GoAt.
func (t *Task) hbGoAt(site Site) *Spawn {
	if t == nil || t.hb == nil && (t.tree == nil || t.tree.hb == nil) {
		return nil
	}
	pcs := callersHere()
	t.feedOnSpawn() // a block starts a thread: its tree's later checks go to the engine too (hb_feed.go)
	th := t.hbOf()
	s := th.fork(site, th.eng.stacks.intern(&pcs))
	th.mu.Unlock()
	return &Spawn{s}
}

// start is Start.
func (s *Spawn) start() *Task {
	if s == nil || s.hb == nil {
		return nil
	}
	th := s.hb.thread()
	th.eng.register(th, false)
	th.eng.all.spawned.Add(-1) // registered: quiescent sees it alive from now on (hb_feed.go)
	hbSetCurrent(&th.task)
	return &th.task
}

// hbExit is Exit.
func (t *Task) hbExit() {
	if t == nil || t.hb == nil {
		return
	}
	th := t.hbOf()
	th.ended()
	th.end()
	th.mu.Unlock()
	hbClearCurrent()
}

// hbExitJoined is ExitJoined.
func (t *Task) hbExitJoined() {
	if t == nil || t.hb == nil {
		return
	}
	th := t.hbOf()
	th.releaseG() // the wrapper's Wait follows the goroutine's end
	th.ended()
	th.end()
	th.mu.Unlock()
	hbClearCurrent()
}

// hbAfter is After: the pending acquires are taken and cleared.
func (t *Task) hbAfter() {
	if t != nil && t.hb != nil && t.hb.npend.Load() == 0 && t.hb.entered.Load() == 0 {
		return // nothing pending, and only the thread's own goroutine adds to it now: no lock (a call through a value into rewritten code, ForeignFunc)
	}
	if th := t.hbOf(); th != nil {
		if t.hb != nil {
			th.takePending(true) // a block's are another block's too: kept
		}
		th.mu.Unlock()
	}
}
