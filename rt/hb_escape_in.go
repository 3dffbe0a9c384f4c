package rt

import "reflect"

// EscapedIn is Escape of every channel v holds in its fields (of structs
// and arrays, through pointers to them, three levels deep): a call into
// code that is not rewritten that gets a struct with a channel in it
// (watch.Watch(watch.Config{Events: ch}, on)) may receive from it on a
// goroutine of its own and run the program's callback, a thread that
// follows the sender only through the global clock
// (testdata/review19/relaystruct: the callback's read of what the sender
// wrote before each send was a false report). It returns v. The rewriter
// calls it only for an argument whose type holds a channel that way; a
// nil t (no thread) does nothing.
func EscapedIn[V any](t *Task, v V) V {
	if t != nil {
		hbEscapeIn(t, reflect.ValueOf(&v).Elem(), 3)
	}
	return v
}

// hbEscapeIn escapes the channels in v, following depth more pointers.
// Value.Pointer reads a channel field that is not exported as well.
func hbEscapeIn(t *Task, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Chan:
		if !v.IsNil() {
			t.hbEscapeAddr(v.Pointer())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			hbEscapeIn(t, v.Field(i), depth)
		}
	case reflect.Array:
		for i := range v.Len() {
			hbEscapeIn(t, v.Index(i), depth)
		}
	case reflect.Pointer:
		if depth > 0 && !v.IsNil() {
			hbEscapeIn(t, v.Elem(), depth-1)
		}
	}
}

// hbEscapeAddr is Escape of the channel whose runtime pointer is p.
func (t *Task) hbEscapeAddr(p uintptr) {
	th := t.hbOf()
	if th == nil {
		return
	}
	th.escapeChan(p)
	th.mu.Unlock()
}
