# JobSubmitPlugins=deadline
