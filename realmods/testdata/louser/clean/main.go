// Command clean is the clean variant of louser: the callback only returns
// its result, which parallel.Map stores in the item's own slot.
package main

import (
	"fmt"

	"github.com/samber/lo/parallel"
)

func main() {
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	lengths := parallel.Map(words, func(w string, i int) int {
		return len(w)
	})
	letters := 0
	for _, n := range lengths {
		letters += n
	}
	fmt.Println(lengths, letters)
}
