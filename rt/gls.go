package rt

import (
	"sync"
	"sync/atomic"
)

// The goroutine-local task table: open addressing with linear probing over
// a power-of-two array of slots. Readers (Current) take no lock: they load
// the table through an atomic pointer and each slot's key with an atomic
// load. Writers (Attach, Detach, Enter and the root's join) hold glsMu;
// deletion leaves a tombstone, and a table whose used slots (live and
// tombstones) pass 3/4 is copied into a new one sized for twice the live
// entries, which is then published. A slot's other fields are written only
// by the goroutine whose key it holds (or by a writer copying the table,
// before publishing), and read only by that goroutine, so they need no
// atomics: a reader matches only its own key.

const (
	glsEmpty     = 0
	glsTombstone = ^uintptr(0)
	glsMinSlots  = 64
)

type glsSlot struct {
	key  atomic.Uintptr // glsEmpty, glsTombstone, or a goroutine's key
	id   uint64         // the goroutine's id, to tell a reused g (see idOf)
	task *Task
	con  *Construct // the root construct whose Enter attached task (nil: Attach)
}

type glsTable struct {
	slots []glsSlot
	mask  uintptr
	shift uint // 64 - log2(len(slots))
}

var (
	glsTab  atomic.Pointer[glsTable]
	glsMu   sync.Mutex
	glsUsed int // slots not empty (live and tombstones), under glsMu
	glsOnce sync.Once
)

func init() { glsTab.Store(newGLSTable(glsMinSlots)) }

func newGLSTable(n int) *glsTable {
	shift := uint(64)
	for m := n; m > 1; m >>= 1 {
		shift--
	}
	return &glsTable{slots: make([]glsSlot, n), mask: uintptr(n - 1), shift: shift}
}

// index is the first slot to probe for key: Fibonacci hashing, whose high
// bits mix the g addresses (all multiples of the g size) and the
// consecutive ids well.
func (tab *glsTable) index(key uintptr) uintptr {
	return uintptr(uint64(key) * 0x9E3779B97F4A7C15 >> tab.shift)
}

// lookup returns the slot of the goroutine with key and g, or nil. An
// entry left by a goroutine that exited attached (its g now runs another
// one) has another id and is not returned. The slot's fields other than key
// may be read only by that goroutine.
func (tab *glsTable) lookup(key uintptr, g gptr) *glsSlot {
	for i := tab.index(key); ; i = (i + 1) & tab.mask {
		s := &tab.slots[i]
		switch s.key.Load() {
		case key:
			if s.id != idOf(g, key) {
				return nil
			}
			return s
		case glsEmpty:
			return nil
		}
	}
}

// find returns the slot holding key, or nil and the slot an insert should
// use (the first tombstone or the empty slot ending the probe). Under glsMu.
func (tab *glsTable) find(key uintptr) (found, free *glsSlot) {
	for i := tab.index(key); ; i = (i + 1) & tab.mask {
		s := &tab.slots[i]
		switch s.key.Load() {
		case key:
			return s, nil
		case glsTombstone:
			if free == nil {
				free = s
			}
		case glsEmpty:
			if free == nil {
				free = s
			}
			return nil, free
		}
	}
}

// glsPut makes t the task of the goroutine with key and id; con is the
// root construct that attaches it, if any. Under glsMu.
func glsPut(key uintptr, id uint64, t *Task, con *Construct) {
	tab := glsTab.Load()
	s, free := tab.find(key)
	if s != nil {
		s.id, s.task, s.con = id, t, con
		return
	}
	if 4*(glsUsed+1) > 3*len(tab.slots) {
		tab = glsGrow(tab)
		_, free = tab.find(key)
	}
	if free.key.Load() == glsEmpty {
		glsUsed++
	}
	free.id, free.task, free.con = id, t, con
	free.key.Store(key)
	attached.Add(1)
}

// glsDelete removes the entry of key, if any. Under glsMu.
func glsDelete(key uintptr) {
	s, _ := glsTab.Load().find(key)
	if s == nil {
		return
	}
	s.key.Store(glsTombstone)
	s.task, s.con = nil, nil
	attached.Add(-1)
}

// glsGrow copies the live entries into a table with room for twice as many
// (at least 64 slots), publishes it and returns it. Under glsMu. Readers
// still probing the old table find their own entry there unchanged: only
// its goroutine changes it, and that goroutine is not reading.
func glsGrow(old *glsTable) *glsTable {
	live := int(attached.Load())
	n := glsMinSlots
	for n < 2*(live+1) {
		n *= 2
	}
	tab := newGLSTable(n)
	for i := range old.slots {
		s := &old.slots[i]
		if k := s.key.Load(); k != glsEmpty && k != glsTombstone {
			_, free := tab.find(k)
			free.id, free.task, free.con = s.id, s.task, s.con
			free.key.Store(k)
		}
	}
	glsUsed = live
	glsTab.Store(tab)
	return tab
}
