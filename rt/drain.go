package rt

import "unsafe"

// Work items received inside a callback. A worker pool whose goroutines
// call a function value with the pool's channel (imaging's
// `go func(){ defer wg.Done(); fn(c) }()`) has its item loop in the
// callback, which is compiled apart from the pool and may be called from
// anywhere. The worker says which channel it drains (Drains); the callback's
// checked copy asks, at each receive of its range, whether the channel it
// ranges over is that one (ItemOf), and only then starts a work item. So a
// callback called from anywhere else runs as one block, as before.

// chanID is the address of the channel ch holds (nil for a nil channel):
// the data word of the interface, since a channel is pointer-shaped.
func chanID(ch any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&ch))[1]
}

// drains marks t as a worker of a pool over the channel ch.
func (t *Task) drains(ch any) {
	if t != nil {
		t.drain = chanID(ch)
	}
}

// itemOf starts a work item when t drains ch.
func (t *Task) itemOf(ch any) {
	if t != nil && t.drain != nil && t.drain == chanID(ch) {
		t.item()
	}
}

// endItemsOf returns t to its own block after the items of ch.
func (t *Task) endItemsOf(ch any) {
	if t != nil && t.drain != nil && t.drain == chanID(ch) {
		t.endItems()
	}
}
