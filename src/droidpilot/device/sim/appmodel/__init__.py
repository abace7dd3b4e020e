"""What SimPhone's apps are: the schema of an app as data, loading ``sim/apps/*.yaml``, the expression
language of templates and conditions, list sources, the calculator, and running an app's actions.
"""
