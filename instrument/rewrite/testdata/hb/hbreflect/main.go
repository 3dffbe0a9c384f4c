// Reflection's accesses ordered by the program: a value set before a send
// and read after the receive, a value set with what a receive returned
// (the write follows the receive, which follows the sender's write), a
// copy into a slice handed over a channel, and values that refer to no
// shared memory (copies). An -hb build reports nothing.
package main

import (
	"fmt"
	"reflect"
)

type pair struct{ A, B int }

func main() {
	ch := make(chan int)
	i := 0
	v := reflect.ValueOf(&i)
	go func() {
		v.Elem().SetInt(3)
		ch <- 1
	}()
	<-ch
	fmt.Println(v.Elem().Int())

	go func() {
		i = 5
		ch <- 7
	}()
	v.Elem().Set(reflect.ValueOf(<-ch))
	fmt.Println(i)

	buf := make([]int, 3)
	done := make(chan []int)
	go func() {
		reflect.Copy(reflect.ValueOf(buf), reflect.ValueOf([]int{1, 2, 3}))
		done <- buf
	}()
	got := <-done
	reflect.Copy(reflect.ValueOf(got[1:]), reflect.ValueOf(got[:1]))
	fmt.Println(got)

	p := pair{1, 2}
	pv := reflect.ValueOf(&p).Elem()
	go func() {
		pv.Field(1).SetInt(20)
		ch <- 0
	}()
	<-ch
	fmt.Println(pv.Interface(), pv.Field(0).IsZero(), reflect.ValueOf(p).String(), reflect.ValueOf(p).Field(0).Int())
}
