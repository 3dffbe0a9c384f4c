package rt

// Placeholder internals so the contract compiles; replaced by the runtime.

type Task struct{}
type Construct struct{}

func registerSites(first Site, sites []SiteInfo)    {}
func enter(t *Task, n int, site Site) *Construct    { return &Construct{} }
func (c *Construct) parentTask() *Task              { return nil }
func (c *Construct) fork(index int) *Task           { return nil }
func (c *Construct) join()                          {}
func (t *Task) item()                               {}
func (t *Task) endItems()                           {}
func (t *Task) read(addr uintptr, site Site)        {}
func (t *Task) write(addr uintptr, site Site)       {}
func (t *Task) readRange(a, n, e uintptr, s Site)   {}
func (t *Task) writeRange(a, n, e uintptr, s Site)  {}
func (t *Task) atomicRead(addr uintptr, site Site)  {}
func (t *Task) atomicWrite(addr uintptr, site Site) {}
func (t *Task) lock(mu uintptr)                     {}
func (t *Task) unlock(mu uintptr)                   {}
func fini(status int)                               {}
