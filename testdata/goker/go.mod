module goker

go 1.24
