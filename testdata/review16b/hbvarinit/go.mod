module hbvar

go 1.22
