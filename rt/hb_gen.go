package rt

import "runtime"

// Generations of the happens-before shadow. A location's history lives in
// the Go heap and would outlive the object it describes: the shadow of a
// program that allocates and drops objects (a pipeline's records, a
// pub/sub's messages) grew with every object it ever checked (5.8 GB for
// bench/unstructured/pubsub). The program's engine therefore keeps the
// shadow in two generations per shard, turned at each collection: a
// chunk touched after a collection moves to the new generation, and the
// chunks of the generation before the last collection are dropped. A
// history lives at least one whole collection cycle after its last
// access; a race whose two accesses are further apart than that, with
// the location untouched between them, is missed. Dropping history only
// removes reports, never makes one. Test engines keep everything (their
// property tests compare with an oracle that forgets nothing).

// gcSentinel is the object whose finalizer counts a collection: dropped at
// once, it is finalized after each cycle, and its finalizer arms the next.
type gcSentinel struct{ _ [16]byte }

// dropOld makes e turn its shadow's generations at each collection.
func (e *hbEngine) dropOld() {
	e.gcOnce.Do(func() {
		e.generations.Store(true)
		e.armGC()
	})
}

// armGC sets the finalizer that counts the next collection.
func (e *hbEngine) armGC() {
	s := new(gcSentinel)
	runtime.SetFinalizer(s, func(*gcSentinel) {
		e.gcGen.Add(1)
		e.armGC()
	})
}
