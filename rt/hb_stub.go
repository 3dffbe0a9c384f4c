package rt

import "sync"

// Placeholders until the happens-before engine lands (issue 13): every
// hook does nothing and HB returns nil, so an -hb build runs unchecked
// outside constructs.

type hbSpawn struct{}

func hbCurrent() *Task                               { return nil }
func hbRoot() *Task                                  { return nil }
func (t *Task) hbEndRoot()                           {}
func (t *Task) hbGo() *Spawn                         { return nil }
func (s *Spawn) start() *Task                        { return nil }
func (t *Task) hbExit()                              {}
func (t *Task) hbChan(ch any)                        {}
func (t *Task) hbSync(obj any)                       {}
func (t *Task) hbOnce(o *sync.Once, f func()) func() { return f }
func (t *Task) hbForeign()                           {}
