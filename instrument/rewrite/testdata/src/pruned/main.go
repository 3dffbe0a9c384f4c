package main

import (
	"fmt"
	"sync"
)

// squares fills its own element per iteration (independent: not checked)
// and races on total (checked in both builds).
func squares(n int) ([]int, int) {
	res := make([]int, n)
	total := 0
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res[i] = i * i
			total += res[i]
		})
	}
	wg.Wait()
	return res, total
}

func main() {
	res, _ := squares(6)
	fmt.Println(res)
}
