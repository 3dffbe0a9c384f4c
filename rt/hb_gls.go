package rt

import (
	"sync"
	"sync/atomic"
)

// The threads' goroutine-local table: a second glsMap (gls.go), apart from
// the structural one, so that HB, HBRoot and Start never change what
// Current and Attach answer. A slot's task is the thread's task.

var (
	hbTab  atomic.Pointer[glsTable]
	hbMu   sync.Mutex
	hbUsed int          // under hbMu
	hbLive atomic.Int64 // threads in the table
	hbGLS  = glsMap{&hbTab, &hbUsed, &hbLive}
)

func init() { hbTab.Store(newGLSTable(glsMinSlots)) }

// hbCurrent is HB: the calling goroutine's thread's task, or nil. While no
// goroutine is a thread it costs one atomic load.
func hbCurrent() *Task {
	if hbLive.Load() == 0 {
		return nil
	}
	if s := hbTab.Load().lookup(self()); s != nil {
		return s.task
	}
	return nil
}

// hbSetCurrent makes t the calling goroutine's thread task.
func hbSetCurrent(t *Task) {
	glsOnce.Do(calibrate)
	key, g := self()
	hbMu.Lock()
	hbGLS.put(key, idOf(g, key), t, nil)
	hbMu.Unlock()
}

// hbClearCurrent ends the calling goroutine's thread, if it has one.
func hbClearCurrent() {
	if hbLive.Load() == 0 {
		return
	}
	key, _ := self()
	hbMu.Lock()
	hbGLS.delete(key)
	hbMu.Unlock()
}
