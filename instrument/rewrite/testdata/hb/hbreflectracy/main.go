// Reflection writes and reads a variable and a slice that another
// goroutine accesses without synchronization (TestRaceReflectRW and
// TestRaceReflectCopyWW of the race detector's suite).
package main

import (
	"fmt"
	"reflect"
)

func main() {
	ch := make(chan bool, 2)
	i := 0
	v := reflect.ValueOf(&i)
	go func() {
		v.Elem().Set(reflect.ValueOf(1)) // want race with the read below
		ch <- true
	}()
	n := v.Elem().Int() // want race with the write above
	<-ch

	a := make([]byte, 2)
	s := reflect.ValueOf(a)
	go func() {
		reflect.Copy(s, reflect.ValueOf([]byte{1, 2})) // want race with the copy below
		ch <- true
	}()
	reflect.Copy(s, reflect.ValueOf([]byte{3, 4})) // want race with the copy above
	<-ch
	fmt.Println(n >= 0, len(a))
}
