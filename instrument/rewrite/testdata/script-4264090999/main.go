package main

import (
	"fmt"
	"os"
	"sync"
)

// text converts in a function the goroutine calls (its checked clone).
func text(r []rune) string {
	return string(r)
}

func main() {
	b, r := make([]byte, 4), make([]rune, 4)
	b2, r2 := make([]byte, 4), make([]rune, 4)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			if i == 0 {
				if os.Args[1] == "racy" {
					b[1] = 'x'
					r[2] = 'y'
				} else {
					b2[1], r2[2] = 'x', 'y'
				}
			} else {
				s := string(b)
				t := text(r)
				fmt.Println(len(s), len(t))
			}
		})
	}
	wg.Wait()
}
