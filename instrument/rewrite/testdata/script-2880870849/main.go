package main

import (
	"fmt"
	"os"
	"sync"
)

// assemble adds 1 into each node of each element, a colour at a time, a
// goroutine per element.
func assemble(y []int, elemNode [][3]int, byColour [][]int) {
	for _, elems := range byColour {
		var wg sync.WaitGroup
		for c := range len(elems) {
			wg.Go(func() {
				for _, e := range elems[c : c+1] {
					en := &elemNode[e]
					for k := range 3 {
						y[en[k]] += 1
					}
				}
			})
		}
		wg.Wait()
	}
}

func main() {
	elemNode := [][3]int{{0, 1, 2}, {2, 3, 4}, {4, 5, 1}}
	byColour := [][]int{{0}, {1}, {2}}
	if os.Args[1] == "bad" {
		byColour = [][]int{{0, 1}, {2}}
	}
	y := make([]int, 6)
	assemble(y, elemNode, byColour)
	fmt.Println(y)
}
