#include "textflag.h"

// func getg() unsafe.Pointer: the calling goroutine's g.
TEXT ·getg(SB), NOSPLIT, $0-8
	MOVD g, R3
	MOVD R3, ret+0(FP)
	RET
