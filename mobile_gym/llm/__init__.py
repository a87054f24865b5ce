"""The language-model side: the action grammar replies are read in and the tool schema it is offered as."""
