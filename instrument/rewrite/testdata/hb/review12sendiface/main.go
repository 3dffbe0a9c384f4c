// A send of a value of a concrete type on a channel of an interface type
// (chan error, chan any): the -hb rewrite's ch <- _ga_rt.SendV(t, ch, v)
// infers E from v, not from ch, so the build breaks ("C (type chan error)
// does not satisfy ~chan E"). The program must build and print as written.
package main

import "fmt"

type myErr struct{ code int }

func (e *myErr) Error() string { return fmt.Sprint("code ", e.code) }

func main() {
	errc := make(chan error, 1)
	go func() { errc <- &myErr{code: 4} }()
	fmt.Println(<-errc)

	anyc := make(chan any, 1)
	x := 5
	go func() { anyc <- x }()
	fmt.Println(<-anyc)
}
