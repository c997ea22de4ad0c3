# nothing here
# at all
