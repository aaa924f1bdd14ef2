module github.com/hearth-appliance/hearth

go 1.26
