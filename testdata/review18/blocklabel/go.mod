module review18/blocklabel

go 1.25
