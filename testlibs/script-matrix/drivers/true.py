# What python3 runs in the routes of the script matrix that are about the
# files it reads before its script (sitecustomize).
