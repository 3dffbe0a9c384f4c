package slice

import "go/types"

// memory is the type-based model of the heap: the types some kept
// expression may load. A store of T can be dropped only while no kept load
// may read a T. Types are keyed by their qualified spelling, so that a
// package and its test variant (type-checked apart) share one key.
type memory struct {
	read map[string]bool
	all  bool // an interface or type parameter reached code outside: anything may be read
	// opaque reports whether fields of a named type are out of the sliced
	// code's reach (the runtime's, whose state only the runtime writes) or
	// only its exported fields are (another package's unexported fields
	// cannot be stored to by the sliced code).
	opaque func(n *types.Named) (all, unexported bool)
}

func newMemory() *memory {
	return &memory{read: map[string]bool{}, opaque: func(*types.Named) (bool, bool) { return false, false }}
}

func key(t types.Type) string { return types.TypeString(t, nil) }

// load records a kept load of a T: T and the memory inside a T (struct
// fields, array elements; not what pointers, slices or maps refer to). It
// reports whether something new was recorded.
func (m *memory) load(t types.Type) bool {
	if t == nil || m.all {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		if _, ok := t.(*types.TypeParam); ok {
			return m.loadAll()
		}
	case *types.Struct:
		changed := m.mark(t)
		for i := range u.NumFields() {
			changed = m.load(u.Field(i).Type()) || changed
		}
		return changed
	case *types.Array:
		changed := m.mark(t)
		return m.load(u.Elem()) || changed
	}
	return m.mark(t)
}

func (m *memory) mark(t types.Type) bool {
	k := key(t)
	if m.read[k] {
		return false
	}
	m.read[k] = true
	return true
}

func (m *memory) loadAll() bool {
	if m.all {
		return false
	}
	m.all = true
	return true
}

// reach records that code outside the analysed packages gets a value of
// type t: it may load anything reachable from it, through pointers,
// slices, maps, channels and fields. An interface (or type parameter) may
// hold anything.
func (m *memory) reach(t types.Type) bool {
	return m.reachSeen(t, map[string]bool{})
}

func (m *memory) reachSeen(t types.Type, seen map[string]bool) bool {
	if t == nil || m.all {
		return false
	}
	k := key(t)
	if seen[k] {
		return false
	}
	seen[k] = true
	if _, ok := t.(*types.TypeParam); ok {
		return m.loadAll()
	}
	skipUnexported := false
	if n, ok := t.(*types.Named); ok {
		all, unexported := m.opaque(n)
		if all {
			return false
		}
		skipUnexported = unexported
	}
	changed := m.mark(t)
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return m.loadAll()
	case *types.Pointer:
		changed = m.reachSeen(u.Elem(), seen) || changed
	case *types.Slice:
		changed = m.reachSeen(u.Elem(), seen) || changed
	case *types.Array:
		changed = m.reachSeen(u.Elem(), seen) || changed
	case *types.Chan:
		changed = m.reachSeen(u.Elem(), seen) || changed
	case *types.Map:
		changed = m.reachSeen(u.Key(), seen) || changed
		changed = m.reachSeen(u.Elem(), seen) || changed
	case *types.Struct:
		for i := range u.NumFields() {
			if f := u.Field(i); f.Exported() || !skipUnexported {
				changed = m.reachSeen(f.Type(), seen) || changed
			}
		}
	}
	return changed
}

// storeNeeded reports whether a store of a T must stay: some kept load may
// read a T or memory inside one.
func (m *memory) storeNeeded(t types.Type) bool {
	if m.all || t == nil {
		return true
	}
	if _, ok := t.(*types.TypeParam); ok {
		return true
	}
	if m.read[key(t)] {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			if m.storeNeeded(u.Field(i).Type()) {
				return true
			}
		}
	case *types.Array:
		return m.storeNeeded(u.Elem())
	}
	return false
}
