package rt

import (
	"sync"
	"sync/atomic"
)

// The goroutine-local task table: open addressing with linear probing over
// a power-of-two array of keys, with the values in a parallel array, so a
// probe reads eight keys per cache line. Readers (Current) take no lock:
// they load the table through an atomic pointer and each key with an
// atomic load. Writers (Attach, Detach, Enter and the root's join) hold
// glsMu; deletion leaves a tombstone, and a table whose used slots (live
// and tombstones) pass three quarters is copied into a new one with at
// least twice as many slots as live entries, which is then published: a
// copy costs O(slots) and comes after at least slots/4 inserts; a lookup
// probes a few keys, one or two cache lines. 10^6 goroutines attached at
// once take 2^21 slots, 64 MB. A value is written only by the goroutine whose
// key it is stored with (or by a writer copying the table, before
// publishing), and read only by that goroutine, so it needs no atomics: a
// reader matches only its own key.

const (
	glsEmpty     = 0
	glsTombstone = ^uintptr(0)
	glsMinSlots  = 64
)

// glsSlot is the value stored with a key.
type glsSlot struct {
	// The goroutine's id, to tell a reused g (see idOf). Atomic: the next
	// goroutine on the g of one that exited attached reads it, ordered
	// after the write only through the runtime's reuse of the g, which
	// the race detector does not see.
	id   atomic.Uint64
	task *Task
	con  *Construct // the root construct whose Enter attached task (nil: Attach)
}

type glsTable struct {
	keys  []atomic.Uintptr // glsEmpty, glsTombstone, or a goroutine's key
	slots []glsSlot        // the value of keys[i]
	mask  uintptr
	shift uint // 64 - log2(len(keys))
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
	return &glsTable{keys: make([]atomic.Uintptr, n), slots: make([]glsSlot, n), mask: uintptr(n - 1), shift: shift}
}

// index is the first slot to probe for key. g addresses are spaced by the
// g's size class (480 bytes on linux/amd64, Go 1.26), which plain Fibonacci
// hashing maps into clusters (4 probes per hit at half load, measured); a
// round of xorshift-multiply first spreads them as well as random keys (1.5).
func (tab *glsTable) index(key uintptr) uintptr {
	x := uint64(key)
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return uintptr(x * 0x9E3779B97F4A7C15 >> tab.shift)
}

// lookup returns the slot of the goroutine with key and g, or nil. An
// entry left by a goroutine that exited attached (its g now runs another
// one) has another id and is not returned. The slot's fields other than key
// may be read only by that goroutine.
func (tab *glsTable) lookup(key uintptr, g gptr) *glsSlot {
	keys := tab.keys
	for i := tab.index(key); ; i = (i + 1) & tab.mask {
		switch keys[i].Load() {
		case key:
			s := &tab.slots[i]
			if s.id.Load() != idOf(g, key) {
				return nil
			}
			return s
		case glsEmpty:
			return nil
		}
	}
}

// find returns the index of key and true, or the index an insert should
// use (the first tombstone or the empty slot ending the probe) and false.
// Under glsMu.
func (tab *glsTable) find(key uintptr) (i uintptr, found bool) {
	free := ^uintptr(0)
	for i = tab.index(key); ; i = (i + 1) & tab.mask {
		switch tab.keys[i].Load() {
		case key:
			return i, true
		case glsTombstone:
			free = min(free, i)
		case glsEmpty:
			if free != ^uintptr(0) {
				return free, false
			}
			return i, false
		}
	}
}

// set stores a slot's value.
func (s *glsSlot) set(id uint64, t *Task, con *Construct) {
	s.id.Store(id)
	s.task, s.con = t, con
}

// glsMap is one goroutine-local table: the structural one (Current,
// Attach) and the happens-before layer's threads (hb_gls.go) are two, so an
// -hb thread is never a structural task. Its writers hold the table's own
// mutex (glsMu, hbMu).
type glsMap struct {
	tab  *atomic.Pointer[glsTable]
	used *int          // slots not empty (live and tombstones), under the mutex
	live *atomic.Int64 // live entries
}

// glsMain is the structural table.
var glsMain = glsMap{&glsTab, &glsUsed, &attached}

// glsPut makes t the task of the goroutine with key and id; con is the
// root construct that attaches it, if any. Under glsMu.
func glsPut(key uintptr, id uint64, t *Task, con *Construct) { glsMain.put(key, id, t, con) }

// glsDelete removes the entry of key, if any. Under glsMu.
func glsDelete(key uintptr) { glsMain.delete(key) }

// put makes t the task of the goroutine with key and id in m.
func (m glsMap) put(key uintptr, id uint64, t *Task, con *Construct) {
	tab := m.tab.Load()
	i, found := tab.find(key)
	if found {
		tab.slots[i].set(id, t, con)
		return
	}
	if 4*(*m.used+1) > 3*len(tab.keys) {
		tab = m.grow(tab)
		i, _ = tab.find(key)
	}
	if tab.keys[i].Load() == glsEmpty {
		*m.used++
	}
	tab.slots[i].set(id, t, con)
	tab.keys[i].Store(key)
	m.live.Add(1)
}

// delete removes the entry of key from m, if any.
func (m glsMap) delete(key uintptr) {
	tab := m.tab.Load()
	i, found := tab.find(key)
	if !found {
		return
	}
	tab.keys[i].Store(glsTombstone)
	tab.slots[i].set(0, nil, nil)
	m.live.Add(-1)
}

// grow copies the live entries into a table with at least twice as many
// slots (and 64), publishes it and returns it. Readers still probing the
// old table find their own entry there unchanged: only its goroutine
// changes it, and that goroutine is not reading.
func (m glsMap) grow(old *glsTable) *glsTable {
	live := int(m.live.Load())
	n := glsMinSlots
	for n < 2*(live+1) {
		n *= 2
	}
	tab := newGLSTable(n)
	for j := range old.keys {
		if k := old.keys[j].Load(); k != glsEmpty && k != glsTombstone {
			i, _ := tab.find(k)
			o := &old.slots[j]
			tab.slots[i].set(o.id.Load(), o.task, o.con)
			tab.keys[i].Store(k)
		}
	}
	*m.used = live
	m.tab.Store(tab)
	return tab
}
