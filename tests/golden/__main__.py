from tests.golden import main

main()
