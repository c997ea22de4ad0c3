graph():
    %x : [#users=1] = placeholder[target=x]
    %add : [#users=1] = call_function[target=operator.add](args = (%x, %nowhere), kwargs = {})
    return add
