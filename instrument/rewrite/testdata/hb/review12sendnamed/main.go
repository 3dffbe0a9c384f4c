// A send of a value of a named function type on a channel of a named
// channel type whose element is the unnamed function type (as
// github.com/sourcegraph/conc/stream sends a Callback on a callbackCh):
// SendV's inference unifies E with the value's type and the build breaks
// ("callbackCh does not satisfy ~chan Callback"); so does a value of a
// named slice type sent on a chan []int ("chan []int does not satisfy
// ~chan ids").
package main

import "fmt"

type callback func() int

type callbackCh chan func() int

type ids []int

func main() {
	ch := make(callbackCh, 1)
	var cb callback = func() int { return 7 }
	go func() { ch <- cb }()
	fmt.Println((<-ch)())
	ic := make(chan []int, 1)
	go func() { ic <- ids{1, 2} }()
	fmt.Println(<-ic)
}
