package rt

import (
	"io"
	"reflect"
	"testing"
)

// TestReflectValueChecks checks what ReflectOf and ReflectCopy check: the
// memory an addressable Value refers to, and the elements reflect.Copy
// moves, against a goroutine's unordered accesses; and nothing for a
// Value that is a copy, or for a string's bytes.
func TestReflectValueChecks(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	var i int64
	var arr [4]byte
	s := make([]byte, 4)
	str := "abcd"
	done := make(chan bool)
	hbGo(root, func(g *Task) {
		ReflectOf(g, reflect.ValueOf(&i).Elem(), 1).SetInt(1)
		ReflectCopy(g, reflect.ValueOf(&arr).Elem(), reflect.ValueOf(str), 2)
		ReflectCopy(g, reflect.ValueOf(s[:2]), reflect.ValueOf(s[2:]), 3)
		done <- true // not hooked: nothing orders the root after the goroutine
	})
	<-done
	_ = ReflectOf(root, reflect.ValueOf(i), 4).Int()                             // a copy: unchecked
	_ = ReflectOf(root, reflect.ValueOf(&arr).Elem(), 5).String()                // an array's String reads nothing
	ReflectCopy(root, reflect.ValueOf(make([]byte, 4)), reflect.ValueOf(str), 6) // a fresh dst, a string src
	if n := races(e); n != 0 {
		t.Fatalf("%d races reported on copies and strings", n)
	}
	_ = ReflectOf(root, reflect.ValueOf(&i).Elem(), 7).Int() // races with SetInt
	if n := races(e); n != 1 {
		t.Fatalf("%d races reported after a read of what SetInt wrote, want 1", n)
	}
	ReflectCopy(root, reflect.ValueOf(make([]byte, 1)), reflect.ValueOf(arr[3:]), 8) // reads arr[3], written by the copy
	if n := races(e); n != 2 {
		t.Fatalf("%d races reported after a copy from an array a copy wrote, want 2", n)
	}
	ReflectCopy(root, reflect.ValueOf(s[3:]), reflect.ValueOf([]byte{9}), 9) // writes s[3], read by the copy
	if n := races(e); n != 3 {
		t.Fatalf("%d races reported after a copy into elements a copy read, want 3", n)
	}
}
