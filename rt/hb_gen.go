package rt

import "runtime"

// Generations of the happens-before shadow. The shadow of an address
// outlives the object there: a cell keeps its histories until the
// address is allocated again by rewritten code (New, Make: forget) or
// touched, and a freed object's extension would stay until then (the
// read sets of a pub/sub's messages). The program's engine therefore
// counts collections: a cell records the collection count when it is
// touched, a cell not touched since the collection before last is
// cleared at its next touch, and after each collection a sweep gives
// back the extensions of such cells. A history lives at least one whole
// collection cycle after its last access; a race whose two accesses are
// further apart than that, with the location untouched between them, is
// missed. Dropping history only removes reports, never makes one. Test
// engines keep everything (their property tests compare with an oracle
// that forgets nothing), unless a test turns generations on.

// gcSentinel is the object whose finalizer counts a collection: dropped at
// once, it is finalized after each cycle, and its finalizer arms the next.
type gcSentinel struct{ _ [16]byte }

// dropOld makes e turn its shadow's generations at each collection.
func (e *hbEngine) dropOld() {
	e.gcOnce.Do(func() {
		e.pace.collected()
		e.generations.Store(true)
		e.armGC()
	})
}

// armGC sets the finalizer that counts the next collection.
func (e *hbEngine) armGC() {
	s := new(gcSentinel)
	runtime.SetFinalizer(s, func(*gcSentinel) {
		e.gcGen.Add(1)
		e.sweep()
		e.pace.collected()
		e.armGC()
	})
}

// sweep clears the cells with an extension that were not touched since
// the collection before last, giving their extensions back.
func (e *hbEngine) sweep() {
	cur := uint32(e.gcGen.Load()) & hbGenMask
	var cells [hbExtBlock]*hbCell
	for b := 0; b < e.exts.owners(b, &cells); b++ {
		for _, c := range cells {
			if c == nil || (cur-c.state.Load())&hbGenMask < 2 {
				continue
			}
			g := e.lock(c)
			if (cur-g)&hbGenMask >= 2 {
				e.clearCell(c)
			}
			e.unlock(c, g)
		}
	}
}
